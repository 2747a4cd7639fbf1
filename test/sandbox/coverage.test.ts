import assert from 'node:assert/strict';
import { Discovery, INVALID_REQUEST } from '../../src/contract/index.js';
import { SEED_PAYERS } from '../../sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { call, client, discoveryBody, v2Body } from './helpers.js';

describe('sandbox: a patient’s coverage changed between checks (POST /sandbox/coverage)', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  const person = { firstName: 'Jordan', lastName: 'Reyes', dateOfBirth: '11/03/2015' };
  const otherPayer = SEED_PAYERS.find((p) => p.payerId !== '60054')!.payerId;

  before(async () => {
    sandbox = await startTestSandbox({ discoveryDelayMs: -1, rateBurst: 1000, ratePerSecond: 1000 });
  });
  after(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.reset();
    api = client(sandbox, await sandbox.token());
  });

  const change = (body: Record<string, unknown>) => call(sandbox, 'POST', '/sandbox/coverage', { body });

  /** A discovery of the patient, completed now by the magic rules and the scripted coverage. */
  async function discover(overrides: Record<string, unknown> = {}): Promise<Discovery> {
    const created = await sandbox.createDiscovery(discoveryBody({ payerId: '60054', ...overrides }));
    const res = await call(sandbox, 'POST', `/sandbox/discoveries/${created.discoveryId}/complete`, { body: {} });
    assert.equal(res.status, 200);
    return Discovery.parse(res.body);
  }

  it('a discovery finds the same member id at every check until one is scripted', async () => {
    const first = await discover();
    const second = await discover();
    assert.equal(first.payerId, '60054');
    assert.match(first.memberId!, /^W\d{9}$/);
    assert.equal(second.memberId, first.memberId);
    const res = await change({ patient: person, change: 'new-member-id' });
    assert.deepEqual(res.body, { covered: true, failing: false, memberIdChanges: 1 });
    const third = await discover();
    assert.notEqual(third.memberId, first.memberId);
    assert.match(third.memberId!, /^W\d{9}$/);
    // Another patient is untouched.
    const other = await discover({ firstName: 'Morgan' });
    assert.equal((await discover({ firstName: 'Morgan' })).memberId, other.memberId);
  });

  it('loses and restores coverage, and moves the payer', async () => {
    await change({ patient: person, change: 'lose' });
    const lost = await discover();
    assert.equal(lost.payerName, null);
    assert.equal(lost.memberId, null);
    await change({ patient: { ...person, lastName: 'REYES ' }, change: 'restore' });
    assert.notEqual((await discover()).memberId, null, 'names match whatever their case and padding');
    await change({ patient: person, change: 'move-payer', payerId: otherPayer });
    const moved = await discover();
    assert.equal(moved.payerId, otherPayer);
    assert.notEqual(moved.payerName, null);
  });

  it('makes v2 verifications of the patient fail (400 naming patient), and recovers', async () => {
    const body = v2Body({ patient: { ...person, state: 'TX', memberId: 'M1' } });
    assert.equal((await api.verifyV2(body)).status, 201);
    await change({ patient: person, change: 'fail' });
    const refused = await api.verifyV2(body);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { error: INVALID_REQUEST, param: 'patient' });
    assert.equal((await api.verifyV2(v2Body())).status, 201, 'another patient still verifies');
    await change({ patient: person, change: 'recover' });
    assert.equal((await api.verifyV2(body)).status, 201);
  });

  it('refuses a bad body naming the field, never echoing a value, and an unknown payer to move to', async () => {
    const bad = await change({ patient: { ...person, dateOfBirth: '1999-01-01' }, change: 'lose' });
    assert.equal(bad.status, 400);
    assert.equal((bad.body as { param: string }).param, 'patient.dateOfBirth');
    assert.ok(!JSON.stringify(bad.body).includes('1999'));
    const unknown = await change({ patient: person, change: 'move-payer', payerId: '99999' });
    assert.equal(unknown.status, 400);
    assert.equal((unknown.body as { param: string }).param, 'payerId');
    const kind = await change({ patient: person, change: 'vanish' });
    assert.equal((kind.body as { param: string }).param, 'change');
  });

  it('forgets scripted coverage on reset', async () => {
    await change({ patient: person, change: 'lose' });
    await sandbox.reset();
    assert.notEqual((await discover()).memberId, null);
  });
});
