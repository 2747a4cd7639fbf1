import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  InvalidParamBody,
  InvalidVerificationBody,
  SandboxRunList,
  VerificationResponseV1,
  VerificationResponseV2,
} from '../../src/contract/index.js';
import { SEED_PROVIDER_GROUPS } from '../../sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { call, client, v2Body } from './helpers.js';

describe('sandbox: verifications', () => {
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

  async function expectInvalid(body: unknown, param: string, id?: string) {
    const res = await api.verifyV2(body);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(InvalidVerificationBody.strict().parse(res.body), {
      error: 'invalid_request_error',
      param,
      ...(id === undefined ? {} : { id }),
    });
  }

  describe('POST /v2/verifications', () => {
    it('creates a verification and echoes the caller id', async () => {
      const res = await api.verifyV2(v2Body({ id: 'caller-1' }));
      assert.equal(res.status, 201);
      const body = VerificationResponseV2.strict().parse(res.body);
      assert.equal(body.id, 'caller-1');
      assert.equal((await sandbox.stats()).verificationsCreated, 1);
    });

    it('creates a verification without a caller id, answering only verificationId', async () => {
      const res = await api.verifyV2(v2Body());
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(VerificationResponseV2.strict().parse(res.body)), ['verificationId']);
    });

    it('accepts an id of 45 characters and rejects one of 46 naming id', async () => {
      assert.equal((await api.verifyV2(v2Body({ id: 'a'.repeat(45) }))).status, 201);
      await expectInvalid(v2Body({ id: 'b'.repeat(46) }), 'id', 'b'.repeat(46));
    });

    it('rejects a bad date of birth naming patient.dateOfBirth and echoing the id', async () => {
      const body = v2Body({ id: 'c-1' });
      await expectInvalid(
        { ...body, patient: { ...body.patient, dateOfBirth: '13/01/1990' } },
        'patient.dateOfBirth',
        'c-1',
      );
    });

    it('rejects an unknown state naming patient.state', async () => {
      const body = v2Body();
      await expectInvalid({ ...body, patient: { ...body.patient, state: 'XX' } }, 'patient.state');
    });

    it('rejects an unknown specialty, a bad place of service and a missing patient by name', async () => {
      await expectInvalid(v2Body({ specialtyCode: 'XYZ' }), 'specialtyCode');
      await expectInvalid(v2Body({ placeOfServiceCode: '1' }), 'placeOfServiceCode');
      const { patient: _p, ...withoutPatient } = v2Body();
      await expectInvalid(withoutPatient, 'patient');
    });

    it('rejects an unknown payer but accepts an alias payer id', async () => {
      await expectInvalid(v2Body({ payerId: '99999', id: 'x' }), 'payerId', 'x');
      assert.equal((await api.verifyV2(v2Body({ payerId: 'EVG01' }))).status, 201);
    });

    it('rejects an unknown provider group and accepts a known one', async () => {
      await expectInvalid(v2Body({ providerGroupId: randomUUID() }), 'providerGroupId');
      const known = SEED_PROVIDER_GROUPS[0].providerGroupId;
      assert.equal((await api.verifyV2(v2Body({ providerGroupId: known }))).status, 201);
    });

    it('rejects a missing or non-v4 idempotency key naming the header', async () => {
      const header = sandbox.config.idempotencyHeader;
      const missing = await api.post('/v2/verifications', v2Body({ id: 'k' }));
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { error: 'invalid_request_error', param: header, id: 'k' });
      const v1Uuid = 'd9428888-122b-11e1-b85c-61cd3cbb3210';
      const notV4 = await api.verifyV2(v2Body(), v1Uuid);
      assert.deepEqual(notV4.body, { error: 'invalid_request_error', param: header });
    });

    it('replays the same key and body: the same verificationId, no second verification', async () => {
      const key = randomUUID();
      const first = await api.verifyV2(v2Body({ id: 'same' }), key);
      // Key order and spacing do not make a different body.
      const reordered = Object.fromEntries(Object.entries(v2Body({ id: 'same' })).reverse());
      const second = await api.verifyV2(reordered, key);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.deepEqual(second.body, first.body);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      const stats = await sandbox.stats();
      assert.equal(stats.verificationsCreated, 1);
      assert.equal(stats.idempotentReplays, 1);
    });

    it('refuses the same key with a different body naming the header', async () => {
      const key = randomUUID();
      assert.equal((await api.verifyV2(v2Body({ id: 'one' }), key)).status, 201);
      const res = await api.verifyV2(v2Body({ id: 'two' }), key);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        error: 'invalid_request_error',
        param: sandbox.config.idempotencyHeader,
        id: 'two',
      });
      assert.equal((await sandbox.stats()).verificationsCreated, 1);
    });

    it('frees a key whose request was rejected, so the corrected request succeeds', async () => {
      const key = randomUUID();
      assert.equal((await api.verifyV2(v2Body({ payerId: 'nope' }), key)).status, 400);
      assert.equal((await api.verifyV2(v2Body(), key)).status, 201);
    });

    it('rejects a body that is not JSON naming body', async () => {
      const res = await call(sandbox, 'POST', '/v2/verifications', {
        token: await sandbox.token(),
        rawBody: '{"patient":',
        headers: { [sandbox.config.idempotencyHeader]: randomUUID() },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'body' });
    });

    it('opens one pending run for an ABA verification, linked to it and the caller id', async () => {
      const key = randomUUID();
      const res = await api.verifyV2(v2Body({ specialtyCode: 'ABA', id: 'aba-1' }), key);
      await api.verifyV2(v2Body({ specialtyCode: 'ABA', id: 'aba-1' }), key);
      const { verificationId } = VerificationResponseV2.parse(res.body);
      const runs = SandboxRunList.parse(await sandbox.runs(verificationId));
      assert.equal(runs.length, 1);
      assert.equal(runs[0]?.status, 'PENDING');
      assert.equal(runs[0]?.id, 'aba-1');
      assert.deepEqual(await sandbox.runs(), runs);
    });

    it('opens no run for other specialties', async () => {
      const res = await api.verifyV2(v2Body({ specialtyCode: 'PSY' }));
      assert.deepEqual(await sandbox.runs(VerificationResponseV2.parse(res.body).verificationId), []);
    });
  });

  describe('POST /v1/verifications', () => {
    const v1Body = (overrides: Record<string, unknown> = {}) => ({
      patientId: '1000001',
      memberId: 'W123456789',
      payerId: '87726',
      npi: '1234567893',
      taxonomyCode: '207Q00000X',
      ...overrides,
    });

    it('creates a verification answering patientId and verificationId', async () => {
      const res = await api.post('/v1/verifications', v1Body({ id: 'legacy-1' }));
      assert.equal(res.status, 201);
      assert.equal(VerificationResponseV1.strict().parse(res.body).patientId, '1000001');
    });

    it('rejects an unknown patient, an unknown payer and a bad NPI by name', async () => {
      for (const [overrides, param] of [
        [{ patientId: '42' }, 'patientId'],
        [{ payerId: '00000' }, 'payerId'],
        [{ npi: '123' }, 'npi'],
        [{ id: 'z'.repeat(46) }, 'id'],
      ] as const) {
        const res = await api.post('/v1/verifications', v1Body(overrides));
        assert.equal(res.status, 400);
        assert.deepEqual(InvalidParamBody.strict().parse(res.body), { error: 'invalid_request_error', param });
      }
    });

    it('creates a second verification on a retry (v1 has no idempotency)', async () => {
      await api.post('/v1/verifications', v1Body());
      await api.post('/v1/verifications', v1Body());
      assert.equal((await sandbox.stats()).verificationsCreated, 2);
    });
  });

  describe('with configured v1 field names', () => {
    let custom: TestSandbox;
    before(async () => {
      custom = await startTestSandbox({ v1NpiField: 'providerNpi', v1TaxonomyField: 'taxonomy' });
    });
    after(() => custom.close());

    it('reads the NPI and taxonomy code under those names', async () => {
      const api1 = client(custom, await custom.token());
      const base = { patientId: '1000002', memberId: 'M1', payerId: '87726' };
      assert.equal(
        (await api1.post('/v1/verifications', { ...base, providerNpi: '1234567893', taxonomy: '207Q00000X' })).status,
        201,
      );
      const res = await api1.post('/v1/verifications', { ...base, npi: '1234567893' });
      assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'providerNpi' });
    });
  });
});
