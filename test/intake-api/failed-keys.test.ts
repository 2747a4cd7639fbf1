import assert from 'node:assert/strict';
import { FailedKeys } from '../../apps/intake-api/api-key.js';
import type { ThrottleRule } from '../../src/access/sign-in-throttle.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';
import { TEST_INTAKE_KEY } from '../../testing/fixtures.js';
import { unreachableIntakeApi } from '../../testing/unreachable-intake-api.js';

const LIMIT: ThrottleRule = { failures: 4, windowMs: 60_000, blockMs: 1_000, maxBlockMs: 4_000 };

describe('intake API: failed keys per address', function () {
  this.timeout(20_000);
  let store: Store;
  const closes: (() => Promise<unknown>)[] = [];

  before(async () => {
    store = await testStore();
  });
  after(async () => {
    for (const close of closes) await close();
    await store?.close();
  });

  /** An intake API process of its own, sharing only the database with the others. */
  function intakeApi() {
    const { api, close } = unreachableIntakeApi(
      {},
      { access: { audit: new AuditTrail(store), failedKeys: new FailedKeys({ store, limit: LIMIT }) } },
    );
    closes.push(close);
    return api;
  }

  it('answers 429 with Retry-After to an address after 4 wrong keys, on every process, whatever key it sends', async () => {
    const apis = [intakeApi(), intakeApi()];
    // A path that is no route still needs a key: 404 with the right one, 401 with a wrong one, no Temporal call.
    const ask = (i: number, key: string, remoteAddress = '192.0.2.44') =>
      apis[i % 2]!.inject({ method: 'GET', url: '/no-such-route', headers: { 'x-api-key': key }, remoteAddress });
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await ask(i, `wrong-key-${i}`)).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);

    const blocked = await ask(1, TEST_INTAKE_KEY);
    assert.equal(blocked.statusCode, 429, 'the right key is refused too while the address is blocked');
    assert.equal(blocked.headers['retry-after'], '1');
    assert.deepEqual(blocked.json(), {
      error: 'too_many_requests',
      message: 'too many wrong x-api-key values from this address',
    });
    assert.equal((await ask(0, TEST_INTAKE_KEY, '192.0.2.45')).statusCode, 404, 'another address is not blocked');

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal((await ask(0, TEST_INTAKE_KEY)).statusCode, 404, 'the right key passes once the block has passed');

    const entries = await store.db
      .selectFrom('audit_entries')
      .select(['outcome', 'actor'])
      .where('action', '=', 'intake.sign-in')
      .where('source', '=', '192.0.2.44')
      .execute();
    const count = (outcome: string) => entries.filter((e) => e.outcome === outcome).length;
    assert.deepEqual([count('denied'), count('throttled')], [4, 7]);
  });

  it('behind a proxy (INTAKE_TRUST_PROXY), counts the callers it forwards, not the proxy', async () => {
    const { api, close } = unreachableIntakeApi(
      { INTAKE_TRUST_PROXY: 'true' },
      { access: { failedKeys: new FailedKeys({ limit: LIMIT }) } },
    );
    closes.push(close);
    const ask = (key: string, caller: string) =>
      api.inject({
        method: 'GET',
        url: '/no-such-route',
        remoteAddress: '10.0.0.2',
        headers: { 'x-api-key': key, 'x-forwarded-for': caller },
      });
    for (let i = 0; i < 4; i++) assert.equal((await ask('wrong', '198.51.100.1')).statusCode, 401);
    assert.equal((await ask(TEST_INTAKE_KEY, '198.51.100.1')).statusCode, 429);
    assert.equal((await ask(TEST_INTAKE_KEY, '198.51.100.2')).statusCode, 404, 'another caller through the same proxy');
  });

  it('declares the 429 and its Retry-After on every route that declares a 401', async () => {
    const response = await intakeApi().inject({ method: 'GET', url: '/docs/openapi.json' });
    const document = response.json<{
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    }>();
    let routes = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, { responses }] of Object.entries(operations)) {
        if (!responses['401']) continue;
        routes++;
        assert.ok(responses['429']?.headers?.['Retry-After'], `${method} ${path}`);
      }
    }
    assert.ok(routes > 20, `${routes} routes`);
  });
});
