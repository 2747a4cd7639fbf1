import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FaultSettings, SandboxStats, VerificationResponseV2 } from '../../src/contract/index.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { call, client, v2Body } from './helpers.js';

describe('sandbox: fault injection, stats and reset', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  before(async () => {
    sandbox = await startTestSandbox({ rateBurst: 1000, ratePerSecond: 1000, faults: { retryAfterSeconds: 3 } });
  });
  after(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.reset();
    api = client(sandbox, await sandbox.token());
  });

  it('shows and partially updates the faults, rejecting an unknown or invalid field by name', async () => {
    const shown = FaultSettings.parse((await call(sandbox, 'GET', '/sandbox/faults')).body);
    assert.equal(shown.retryAfterSeconds, 3);
    const updated = await call(sandbox, 'POST', '/sandbox/faults', { body: { latencyMs: 5 } });
    assert.deepEqual(updated.body, { ...shown, latencyMs: 5 });
    const unknown = await call(sandbox, 'POST', '/sandbox/faults', { body: { errorRate: 1 } });
    assert.deepEqual(unknown.body, { error: 'invalid_request_error', param: 'errorRate' });
    const invalid = await call(sandbox, 'POST', '/sandbox/faults', { body: { error500Rate: 2 } });
    assert.deepEqual(invalid.body, { error: 'invalid_request_error', param: 'error500Rate' });
  });

  it('injects 500s on service calls but never on /oauth/token', async () => {
    await sandbox.setFaults({ error500Rate: 1 });
    const res = await api.get('/v1/payers/60054');
    assert.equal(res.status, 500);
    assert.equal(typeof (res.body as { error: unknown }).error, 'string');
    await sandbox.token();
  });

  it('injects 429s with the configured Retry-After, counted as sent', async () => {
    await sandbox.setFaults({ error429Rate: 1 });
    const res = await api.get('/v1/payers/60054');
    assert.equal(res.status, 429);
    assert.deepEqual(res.body, { error: 'Too many requests' });
    assert.equal(res.headers.get('retry-after'), '3');
    assert.equal((await sandbox.stats()).tooManyRequestsSent, 1);
  });

  it('adds latency to calls', async () => {
    await sandbox.setFaults({ latencyMs: 150 });
    const started = performance.now();
    await api.get('/v1/payers/60054');
    assert.ok(performance.now() - started >= 140);
  });

  it('drops a processed verification response; the retry with the same key gets the same verificationId', async () => {
    await sandbox.setFaults({ dropResponses: 1 });
    const key = randomUUID();
    await assert.rejects(api.verifyV2(v2Body(), key), TypeError);
    const retry = await api.verifyV2(v2Body(), key);
    assert.equal(retry.status, 201);
    VerificationResponseV2.parse(retry.body);
    const stats = await sandbox.stats();
    assert.equal(stats.verificationsCreated, 1);
    assert.equal(stats.idempotentReplays, 1);
    assert.equal(stats.responsesDropped, 1);
    assert.deepEqual(stats.calls['POST /v2/verifications'], { '201': 2 });
    assert.equal(FaultSettings.parse((await call(sandbox, 'GET', '/sandbox/faults')).body).dropResponses, 0);
  });

  it('lists the verifications created per caller id, so a v1 retry after a dropped response shows twice', async () => {
    const v1 = { patientId: '1000001', memberId: 'M1', payerId: '60054', npi: '1234567893', id: 'twice-v1' };
    await sandbox.setFaults({ dropResponses: 1 });
    await assert.rejects(api.post('/v1/verifications', v1), TypeError);
    assert.equal((await api.post('/v1/verifications', v1)).status, 201);
    await api.verifyV2(v2Body({ id: 'once-v2' }));
    const listed = (await call(sandbox, 'GET', '/sandbox/verifications?id=twice-v1')).body as { id?: string }[];
    assert.deepEqual(
      listed.map((r) => r.id),
      ['twice-v1', 'twice-v1'],
    );
    const all = (await call(sandbox, 'GET', '/sandbox/verifications')).body as { id?: string; version: string }[];
    assert.deepEqual(all.map((r) => `${r.version} ${r.id}`).sort(), ['v1 twice-v1', 'v1 twice-v1', 'v2 once-v2']);
  });

  it('counts calls by method, route pattern and status, leaving /sandbox calls out', async () => {
    await api.get('/v1/payers/60054');
    await api.get('/v1/payers/87726');
    await api.get('/v1/payers/nope');
    const stats = SandboxStats.strict().parse(await sandbox.stats());
    assert.deepEqual(stats.calls, {
      'POST /oauth/token': { '200': 1 },
      'GET /v1/payers/:payerId': { '200': 2, '404': 1 },
    });
  });

  it('resets state, faults and stats', async () => {
    await sandbox.setFaults({ latencyMs: 10, error500Rate: 0.5 });
    await api.verifyV2(v2Body({ specialtyCode: 'ABA' }));
    await sandbox.reset();
    const stats = await sandbox.stats();
    assert.equal(stats.verificationsCreated, 0);
    assert.deepEqual(stats.calls, {});
    assert.deepEqual(await sandbox.runs(), []);
    const faults = FaultSettings.parse((await call(sandbox, 'GET', '/sandbox/faults')).body);
    assert.equal(faults.latencyMs, sandbox.config.faults.latencyMs);
    assert.equal(faults.error500Rate, 0);
  });
});
