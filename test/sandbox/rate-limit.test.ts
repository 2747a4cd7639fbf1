import assert from 'node:assert/strict';
import { RateLimitSettings } from '../../src/contract/index.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { call, client } from './helpers.js';

describe('sandbox: rate limit control', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox({ rateBurst: 3, ratePerSecond: 0.001 });
  });
  after(() => sandbox.close());
  beforeEach(() => sandbox.reset());

  /** Statuses of `n` payer lookups sent at once. */
  async function lookups(n: number): Promise<number[]> {
    const api = client(sandbox, await sandbox.token());
    return Promise.all(Array.from({ length: n }, async () => (await api.get('/v1/payers/60054')).status));
  }

  it('shows the configured limit and rejects an unknown or invalid field by name', async () => {
    const shown = RateLimitSettings.parse((await call(sandbox, 'GET', '/sandbox/rate-limit')).body);
    assert.deepEqual(shown, { ratePerSecond: 0.001, burst: 3 });
    const unknown = await call(sandbox, 'POST', '/sandbox/rate-limit', { body: { rps: 5 } });
    assert.deepEqual(unknown.body, { error: 'invalid_request_error', param: 'rps' });
    const invalid = await call(sandbox, 'POST', '/sandbox/rate-limit', { body: { ratePerSecond: 0 } });
    assert.deepEqual(invalid.body, { error: 'invalid_request_error', param: 'ratePerSecond' });
  });

  it('changes the limit mid-run: a lower burst refuses calls the old one allowed, a higher one lets them through', async () => {
    assert.deepEqual(await sandbox.setRateLimit({ burst: 1 }), { ratePerSecond: 0.001, burst: 1 });
    assert.deepEqual((await lookups(3)).sort(), [200, 429, 429]);
    await sandbox.setRateLimit({ ratePerSecond: 1000, burst: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(await lookups(5), [200, 200, 200, 200, 200]);
  });

  it('goes back to the configured limit on reset', async () => {
    await sandbox.setRateLimit({ burst: 1 });
    await sandbox.reset();
    assert.deepEqual((await lookups(4)).sort(), [200, 200, 200, 429]);
  });
});
