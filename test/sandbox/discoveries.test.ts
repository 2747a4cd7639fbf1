import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Discovery } from '../../src/contract/index.js';
import { DEFAULT_DISCOVERY_PAYER_ID, SEED_PAYERS } from '../../sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { call, client, discoveryBody, eventually } from './helpers.js';

describe('sandbox: discoveries', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  before(async () => {
    sandbox = await startTestSandbox({ discoveryDelayMs: 100, rateBurst: 1000, ratePerSecond: 1000 });
  });
  after(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.reset();
    api = client(sandbox, await sandbox.token());
  });

  async function fetchDiscovery(id: string): Promise<Discovery> {
    const res = await api.get(`/v1/discovery/${id}`);
    assert.equal(res.status, 200);
    return Discovery.strict().parse(res.body);
  }

  it('creates a pending discovery with null payerName and memberId', async () => {
    const res = await call(sandbox, 'POST', '/sandbox/discoveries', {
      body: discoveryBody({ id: 'd-1', delayMs: -1 }),
    });
    assert.equal(res.status, 201);
    const created = Discovery.strict().parse(res.body);
    assert.equal(created.status, 'pending');
    assert.equal(created.payerName, null);
    assert.equal(created.memberId, null);
    assert.equal(created.id, 'd-1');
    assert.deepEqual(await fetchDiscovery(created.discoveryId), created);
  });

  it('completes after the configured delay with the default payer and a member id', async () => {
    const created = await sandbox.createDiscovery(discoveryBody());
    await eventually(async () => (await fetchDiscovery(created.discoveryId)).status === 'complete');
    const done = await fetchDiscovery(created.discoveryId);
    assert.ok(done.memberId, 'a member id was found');
    assert.equal(done.payerId, DEFAULT_DISCOVERY_PAYER_ID);
    assert.equal(done.payerName, SEED_PAYERS.find((p) => p.payerId === DEFAULT_DISCOVERY_PAYER_ID)?.payerName);
  });

  it('completes with the given payer', async () => {
    const created = await sandbox.createDiscovery(discoveryBody({ payerId: '62308', delayMs: 0 }));
    await eventually(async () => (await fetchDiscovery(created.discoveryId)).status === 'complete');
    assert.equal((await fetchDiscovery(created.discoveryId)).payerName, 'Harborview Health Alliance');
  });

  it('completes without coverage for the last name Nocoverage, in any case', async () => {
    const created = await sandbox.createDiscovery(discoveryBody({ lastName: 'NOCOVERAGE', delayMs: 0 }));
    await eventually(async () => (await fetchDiscovery(created.discoveryId)).status === 'complete');
    const done = await fetchDiscovery(created.discoveryId);
    assert.equal(done.payerName, null);
    assert.equal(done.memberId, null);
  });

  it('stays pending with delayMs -1 until completed by hand', async () => {
    const created = await sandbox.createDiscovery(discoveryBody({ delayMs: -1 }));
    await sleep(200);
    assert.equal((await fetchDiscovery(created.discoveryId)).status, 'pending');
    const done = await sandbox.completeDiscovery(created.discoveryId, false);
    assert.equal(done.status, 'complete');
    assert.equal(done.memberId, null);
    const again = await call(sandbox, 'POST', `/sandbox/discoveries/${created.discoveryId}/complete`, { body: {} });
    assert.deepEqual(again.body, { error: 'invalid_request_error', param: 'discoveryId' });
  });

  it('rejects an invalid discovery request by field, and an unknown payer', async () => {
    for (const [body, param] of [
      [discoveryBody({ dateOfBirth: '1990-01-01' }), 'dateOfBirth'],
      [discoveryBody({ state: 'XX' }), 'state'],
      [discoveryBody({ delayMs: -2 }), 'delayMs'],
      [discoveryBody({ payerId: '00000' }), 'payerId'],
    ] as const) {
      const res = await call(sandbox, 'POST', '/sandbox/discoveries', { body });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'invalid_request_error', param });
    }
  });

  it('answers 404 for an unknown discovery', async () => {
    const res = await api.get('/v1/discovery/unknown');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'invalid_request_error' });
    const complete = await call(sandbox, 'POST', '/sandbox/discoveries/unknown/complete', { body: {} });
    assert.equal(complete.status, 404);
  });
});
