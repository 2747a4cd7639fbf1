import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { canonicalJson, fingerprint } from '../../sandbox/idempotency.js';
import { MAX_PATH_ID_LENGTH } from '../../sandbox/path-ids.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { call, client, v2Body } from './helpers.js';

/** The recursive canonical form the sandbox used before, as a reference for ordinary depths. */
function reference(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reference);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, reference(v)]));
  }
  return value;
}

/** `{"x":{"x":…1…}}` nested `depth` times, as JSON text (JSON.stringify itself overflows past a few thousand). */
const nested = (depth: number) => `${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('sandbox: deep bodies and long path ids', () => {
  let sandbox: TestSandbox;
  let token: string;
  let api: ReturnType<typeof client>;

  before(async () => {
    sandbox = await startTestSandbox();
    token = await sandbox.token();
    api = client(sandbox, token);
  });
  after(() => sandbox.close());

  it('canonicalises JSON like before, whatever the key order, and at any depth without recursion', () => {
    const samples = [{ b: 1, a: [1, { d: 2, c: null }], e: 'q"\u2028' }, [], {}, [[], {}], 'text', 1.5, null, true];
    for (const sample of samples) assert.equal(canonicalJson(sample), JSON.stringify(reference(sample)));
    assert.equal(fingerprint({ a: 1, b: [2, 3] }), fingerprint({ b: [2, 3], a: 1 }));
    assert.notEqual(fingerprint({ a: 1 }), fingerprint({ a: 2 }));
    const deep = JSON.parse(nested(100_000)) as unknown;
    assert.equal(canonicalJson(deep), nested(100_000));
  });

  it('creates a verification whose body has an extra field nested 4,000 and 50,000 levels deep, and replays it', async () => {
    for (const depth of [4000, 50_000]) {
      const key = randomUUID();
      const rawBody = `${JSON.stringify(v2Body()).slice(0, -1)},"extra":${nested(depth)}}`;
      const send = () =>
        call(sandbox, 'POST', '/v2/verifications', {
          token,
          rawBody,
          headers: { [sandbox.config.idempotencyHeader]: key },
        });
      const first = await send();
      assert.equal(first.status, 201, `depth ${depth}: ${JSON.stringify(first.body)}`);
      const again = await send();
      assert.equal(again.status, 201);
      assert.deepEqual(again.body, first.body, 'the same key and body replay the first answer');
    }
  });

  it('answers a path id over the sandbox’s bound with 400 naming the path parameter', async () => {
    const long = 'x'.repeat(MAX_PATH_ID_LENGTH + 1);
    const cases: [Promise<{ status: number; body: unknown }>, string][] = [
      [api.get(`/v1/payers/${long}`), 'payerId'],
      [api.get(`/v1/discovery/${long}`), 'discoveryId'],
      [api.get(`/v1/patients/${'y'.repeat(5000)}`), 'patientId'],
      [api.put(`/v1/runs/${long}`, { input: { a: 1 } }), 'flowRunId'],
      [api.post(`/v1/webhooks/ep_${long}/events`, { event: 'sandbox.discovery.updated' }), 'endpointId'],
    ];
    for (const [response, param] of cases) {
      const { status, body } = await response;
      assert.deepEqual([status, body], [400, { error: 'invalid_request_error', param }]);
    }
    // At the bound an unknown id is simply not found, and without a token it is 403 first.
    const atBound = await api.get(`/v1/payers/${'x'.repeat(MAX_PATH_ID_LENGTH)}`);
    assert.equal(atBound.status, 404);
    const anonymous = await call(sandbox, 'GET', `/v1/payers/${long}`, { token: null });
    assert.equal(anonymous.status, 403);
  });
});
