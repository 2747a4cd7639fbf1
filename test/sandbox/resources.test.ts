import assert from 'node:assert/strict';
import {
  InvalidParamBody,
  LegacyPatient,
  Payer,
  ProviderGroupResponse,
  RunUpdateResponse,
  VerificationResponseV2,
} from '../../src/contract/index.js';
import { SEED_PATIENTS, SEED_PAYERS } from '../../sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { client, v2Body } from './helpers.js';

describe('sandbox: patients, payers, provider groups, runs', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  before(async () => {
    sandbox = await startTestSandbox({ rateBurst: 1000, ratePerSecond: 1000 });
  });
  after(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.reset();
    api = client(sandbox, await sandbox.token());
  });

  it('seeds at least ten payers with unique ids and alias ids, and a few patients', () => {
    assert.ok(SEED_PAYERS.length >= 10);
    const ids = SEED_PAYERS.flatMap((p) => [p.payerId, ...p.aliasPayerIds]);
    assert.equal(new Set(ids).size, ids.length);
    for (const payer of SEED_PAYERS) Payer.parse(payer);
    for (const patient of SEED_PATIENTS) LegacyPatient.parse(patient);
  });

  it('returns a legacy patient, and 404 for an unknown one', async () => {
    const res = await api.get('/v1/patients/1000001');
    assert.equal(res.status, 200);
    assert.deepEqual(LegacyPatient.strict().parse(res.body), SEED_PATIENTS[0]);
    const missing = await api.get('/v1/patients/999');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'invalid_request_error' });
  });

  it('finds a payer by its id and by any alias id', async () => {
    const payer = SEED_PAYERS[1];
    assert.ok(payer);
    for (const id of [payer.payerId, ...payer.aliasPayerIds]) {
      const res = await api.get(`/v1/payers/${id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(Payer.strict().parse(res.body), payer);
    }
  });

  it('answers 404 for an unknown payer, a path with an encoded slash and an unknown path', async () => {
    for (const path of ['/v1/payers/00000', '/v1/payers/60054%2F..', '/v1/nothing-here']) {
      const res = await api.get(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, { error: 'invalid_request_error' });
    }
  });

  it('answers 400 for a path whose percent-encoding does not decode', async () => {
    const res = await api.get('/v1/payers/%E0%A4%A');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'invalid_request_error' });
  });

  describe('POST /v1/providers/groups', () => {
    const group = { name: 'Northside Therapy', tin: '987654321', tinType: 'EIN' };

    it('creates a provider group with a UUID that then scopes a verification', async () => {
      const res = await api.post('/v1/providers/groups', group);
      assert.equal(res.status, 201);
      const { providerGroupId } = ProviderGroupResponse.strict().parse(res.body);
      assert.equal((await api.verifyV2(v2Body({ providerGroupId }))).status, 201);
    });

    it('rejects tins of 8 and 10 digits naming tin', async () => {
      for (const tin of ['12345678', '1234567890', '12345678a']) {
        const res = await api.post('/v1/providers/groups', { ...group, tin });
        assert.equal(res.status, 400);
        assert.deepEqual(InvalidParamBody.strict().parse(res.body), { error: 'invalid_request_error', param: 'tin' });
      }
    });

    it('rejects a tinType other than EIN or SSN naming tinType', async () => {
      const res = await api.post('/v1/providers/groups', { ...group, tinType: 'ITIN' });
      assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'tinType' });
    });

    it('rejects a name longer than 255 characters naming name', async () => {
      assert.equal((await api.post('/v1/providers/groups', { ...group, name: 'n'.repeat(255) })).status, 201);
      const res = await api.post('/v1/providers/groups', { ...group, name: 'n'.repeat(256) });
      assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'name' });
    });
  });

  describe('PUT /v1/runs/{flowRunId}', () => {
    async function pendingRun(): Promise<string> {
      const res = await api.verifyV2(v2Body({ specialtyCode: 'ABA' }));
      const [run] = await sandbox.runs(VerificationResponseV2.parse(res.body).verificationId);
      assert.ok(run);
      return run.flowRunId;
    }

    it('patches a pending run: 200 CREATED, and the run is no longer pending', async () => {
      const flowRunId = await pendingRun();
      const res = await api.put(`/v1/runs/${flowRunId}`, { input: { authorizationNumber: 'A-1' } });
      assert.equal(res.status, 200);
      assert.deepEqual(RunUpdateResponse.strict().parse(res.body), { flowRunId, status: 'CREATED' });
      const [run] = await sandbox.runs();
      assert.equal(run?.status, 'CREATED');
    });

    it('rejects input that is not an object naming input', async () => {
      const flowRunId = await pendingRun();
      for (const body of [{ input: 'text' }, { input: [1] }, { input: null }, {}]) {
        const res = await api.put(`/v1/runs/${flowRunId}`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'input' });
      }
    });

    it('rejects an empty input object naming input (nothing to patch)', async () => {
      const res = await api.put(`/v1/runs/${await pendingRun()}`, { input: {} });
      assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'input' });
    });

    it('rejects a second answer naming flowRunId', async () => {
      const flowRunId = await pendingRun();
      await api.put(`/v1/runs/${flowRunId}`, { input: { a: 1 } });
      const res = await api.put(`/v1/runs/${flowRunId}`, { input: { a: 2 } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'flowRunId' });
    });

    it('answers 404 for an unknown run', async () => {
      const res = await api.put('/v1/runs/0b9a4c1e-1d2f-4e3a-9b8c-7d6e5f4a3b2c', { input: { a: 1 } });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { error: 'invalid_request_error' });
    });
  });
});
