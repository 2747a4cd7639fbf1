import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { EligibilityClient, InvalidRequestError, RateLimitError, ServerError } from '../../src/client/index.js';
import {
  Discovery,
  LegacyPatient,
  Payer,
  ProviderGroupResponse,
  RunUpdateResponse,
  VerificationResponseV1,
  VerificationResponseV2,
  WebhookEndpoint,
} from '../../src/contract/index.js';
import { loadConfig } from '../../src/config.js';
import { startTestSandbox, type TestSandbox, type TestSandboxOverrides } from '../../testing/sandbox.js';
import { rejection } from './requests.js';
import { v1Request, v2Request } from '../../testing/fixtures.js';

const TOKEN_ROUTE = 'POST /oauth/token';

/** Service calls counted by the sandbox, the token endpoint excluded. */
function serviceCalls(stats: Awaited<ReturnType<TestSandbox['stats']>>): number {
  return Object.entries(stats.calls)
    .filter(([route]) => route !== TOKEN_ROUTE)
    .reduce((sum, [, byStatus]) => sum + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);
}

describe('EligibilityClient against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: TestSandbox | undefined;
  /** Every bearer token the client sent, and every error it threw: checked for leaks at the end. */
  const tokensSent = new Set<string>();
  const errors: unknown[] = [];

  const spyFetch: typeof fetch = (input, init) => {
    const auth = (input as Request).headers.get('authorization');
    if (auth) tokensSent.add(auth.replace(/^Bearer /, ''));
    return fetch(input, init);
  };

  async function start(
    overrides: TestSandboxOverrides = {},
  ): Promise<{ sandbox: TestSandbox; client: EligibilityClient }> {
    sandbox = await startTestSandbox(overrides);
    const client = new EligibilityClient(loadConfig('worker', { ELIGIBILITY_BASE_URL: sandbox.url }).service, {
      fetch: spyFetch,
    });
    return { sandbox, client };
  }

  async function failure(promise: Promise<unknown>): Promise<unknown> {
    const err = await rejection(promise);
    errors.push(err);
    return err;
  }

  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('calls every endpoint and gets contract-shaped answers', async () => {
    const { sandbox, client } = await start();
    Payer.parse(await client.getPayer('60054'));
    Payer.parse(await client.getPayer('EVG01')); // an alias id
    LegacyPatient.parse(await client.getLegacyPatient('1000001'));
    const created = await sandbox.createDiscovery({
      firstName: 'Avery',
      lastName: 'Quinn',
      dateOfBirth: '04/12/1987',
      state: 'WA',
    });
    assert.equal(Discovery.parse(await client.getDiscovery(created.discoveryId)).discoveryId, created.discoveryId);
    const v2 = VerificationResponseV2.parse(
      await client.createVerificationV2(v2Request({ id: 'caller-1', specialtyCode: 'ABA' }), {
        idempotencyKey: randomUUID(),
      }),
    );
    assert.equal(v2.id, 'caller-1');
    VerificationResponseV1.parse(await client.createVerificationV1(v1Request()));
    ProviderGroupResponse.parse(
      await client.createProviderGroup({ name: 'Test Group', tin: '987654321', tinType: 'EIN' }),
    );
    const [run] = await sandbox.runs(v2.verificationId);
    assert.ok(run, 'an ABA verification opens a run');
    const updated = RunUpdateResponse.parse(await client.updateRun(run.flowRunId, { authorizationNumber: 'A-1' }));
    assert.deepEqual(updated, { flowRunId: run.flowRunId, status: 'CREATED' });
    const endpoint = WebhookEndpoint.parse(await client.registerWebhook('http://127.0.0.1:9/hooks'));
    assert.deepEqual(endpoint.events, []);
    const subscribed = await client.subscribeWebhookEvent(endpoint.endpointId, 'sandbox.discovery.updated');
    assert.deepEqual(WebhookEndpoint.parse(subscribed).events, ['sandbox.discovery.updated']);
  });

  it('fetches exactly one token for 50 concurrent calls on a fresh client', async () => {
    const { sandbox, client } = await start();
    await Promise.all(Array.from({ length: 50 }, () => client.getPayer('60054')));
    const stats = await sandbox.stats();
    assert.equal(stats.tokensIssued, 1);
    assert.deepEqual(stats.calls[TOKEN_ROUTE], { '200': 1 });
    assert.deepEqual(stats.calls['GET /v1/payers/:payerId'], { '200': 50 });
  });

  it('keeps calling without a failure through 2-second tokens, refreshing ahead of expiry', async () => {
    const { sandbox, client } = await start({ tokenTtlSeconds: 2 });
    const until = Date.now() + 6000;
    let calls = 0;
    while (Date.now() < until) {
      await Promise.all([client.getPayer('60054'), client.getPayer('87726')]);
      calls += 2;
      await sleep(50);
    }
    const stats = await sandbox.stats();
    assert.deepEqual(stats.calls['GET /v1/payers/:payerId'], { '200': calls }, 'no call was refused');
    assert.ok(stats.tokensIssued >= 3 && stats.tokensIssued <= 5, `${stats.tokensIssued} tokens in 6 s`);
  });

  it('refreshes a revoked token once and succeeds', async () => {
    const { sandbox, client } = await start();
    await client.getPayer('60054');
    await sandbox.revokeTokens();
    Payer.parse(await client.getPayer('60054'));
    const stats = await sandbox.stats();
    assert.equal(stats.tokensIssued, 2);
    assert.deepEqual(stats.calls['GET /v1/payers/:payerId'], { '200': 2, '403': 1 });
  });

  it('recognises the rate limit by its 429 when the burst is spent', async () => {
    const { client } = await start({ rateBurst: 3, ratePerSecond: 0.5 });
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => client.getPayer('60054')));
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason as unknown);
    errors.push(...refused);
    assert.equal(refused.length, 2);
    for (const err of refused) {
      assert.ok(err instanceof RateLimitError);
      assert.equal(err.status, 429);
      assert.equal(err.error, 'Too many requests');
      assert.ok(err.retryAfterMs !== undefined && err.retryAfterMs >= 1000, `retryAfterMs ${err.retryAfterMs}`);
    }
  });

  it('reads Retry-After: 3 as retryAfterMs 3000', async () => {
    const { sandbox, client } = await start();
    await sandbox.setFaults({ error429Rate: 1, retryAfterSeconds: 3 });
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfterMs, 3000);
    assert.equal(err.message, '429 Too many requests');
  });

  it('turns a 500 into ServerError', async () => {
    const { sandbox, client } = await start();
    await sandbox.setFaults({ error500Rate: 1 });
    const err = await failure(client.createVerificationV2(v2Request(), { idempotencyKey: randomUUID() }));
    assert.ok(err instanceof ServerError);
    assert.equal(err.status, 500);
  });

  it('refuses bad input naming the param the service would, at no call', async () => {
    const { sandbox, client } = await start();
    const key = { idempotencyKey: randomUUID() };
    const badDate = v2Request({ patient: { ...v2Request().patient, dateOfBirth: '13/01/1990' } });
    const cases: [Promise<unknown>, string][] = [
      [client.createVerificationV2(badDate, key), 'patient.dateOfBirth'],
      [client.createVerificationV2(v2Request({ id: 'x'.repeat(46) }), key), 'id'],
      [client.createVerificationV2(v2Request({ specialtyCode: 'XYZ' as 'ABA' }), key), 'specialtyCode'],
      [client.createProviderGroup({ name: 'G', tin: '12345678', tinType: 'EIN' }), 'tin'],
      [client.createProviderGroup({ name: 'G', tin: '123456789', tinType: 'ITIN' as 'EIN' }), 'tinType'],
      [client.registerWebhook('not a url'), 'url'],
      [client.subscribeWebhookEvent('ep_1', ''), 'event'],
      [client.updateRun(randomUUID(), [] as unknown as Record<string, unknown>), 'input'],
      [client.getDiscovery(''), 'discoveryId'],
    ];
    for (const [promise, param] of cases) {
      const err = await failure(promise);
      assert.ok(err instanceof InvalidRequestError, `${param}: got ${String(err)}`);
      assert.equal(err.param, param);
      assert.equal(err.status, undefined, 'refused locally');
    }
    const stats = await sandbox.stats();
    assert.equal(serviceCalls(stats), 0);
    assert.equal(stats.tokensIssued, 0, 'not even a token was fetched');
  });

  it('agrees with the sandbox on the param of an invalid request', async () => {
    // The same invalid body sent raw: the sandbox must name what the client names.
    const { sandbox } = await start();
    const token = await sandbox.token();
    const response = await fetch(`${sandbox.url}/v2/verifications`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(v2Request({ id: 'x'.repeat(46) })),
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { param?: string }).param, 'id');
  });

  it('never shows the secret or a token in an error', () => {
    assert.ok(errors.length >= 10 && tokensSent.size >= 2, `${errors.length} errors, ${tokensSent.size} tokens`);
    for (const err of errors) {
      const shown = [inspect(err, { depth: 10, showHidden: true }), JSON.stringify(err), String(err)].join('\n');
      assert.ok(!shown.includes('sandbox-secret'), 'no secret');
      for (const token of tokensSent) assert.ok(!shown.includes(token), 'no token');
    }
  });
});
