import assert from 'node:assert/strict';
import { PayerNames, type PayerSource } from '../../src/payers/payer-names.js';
import { NotFoundError } from '../../src/client/errors.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import type { Payer } from '../../src/contract/index.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';

const EVERGREEN: Payer = {
  payerId: '60054',
  payerName: 'Evergreen Health Plan',
  aliasPayerIds: ['EVG01', '60055'],
  aliasPayerNames: ['Evergreen Health'],
};

/** A payer endpoint that counts its calls and its answers; `slow` ids answer after the page's wait. */
function countingSource(slow = new Set<string>()): PayerSource & { calls: string[]; answers: number } {
  const calls: string[] = [];
  const source = {
    calls,
    answers: 0,
    async getPayer(id: string) {
      calls.push(id);
      if (slow.has(id)) await new Promise((resolve) => setTimeout(resolve, 300));
      source.answers += 1;
      if (id === EVERGREEN.payerId || EVERGREEN.aliasPayerIds.includes(id)) return EVERGREEN;
      throw new NotFoundError({ status: 404, error: 'not_found', endpoint: 'GET /v1/payers/{payerId}' });
    },
  };
  return source;
}

describe('payer names for the console', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(async () => sandbox?.close());

  it("names the sandbox's payers from its payer endpoint, aliases included", async () => {
    const names = new PayerNames(
      new EligibilityClient(loadConfig('console', { ELIGIBILITY_BASE_URL: sandbox.url }).service),
    );
    const found = await names.names(['60054', 'SMT87', undefined, null, '60054']);
    assert.equal(found.get('60054')?.name, 'Evergreen Health Plan');
    assert.equal(found.get('SMT87')?.name, 'Summit Mutual Insurance', 'an alias id is its payer');
    assert.deepEqual(found.get('60054')?.aliasIds, ['EVG01', '60055']);
  });

  it('asks the service once per payer: an alias is cached with its payer, an unknown id is remembered', async () => {
    const source = countingSource();
    const names = new PayerNames(source);
    await names.names(['60054', '99999']);
    const again = await names.names(['60054', 'EVG01', '60055', '99999']);
    assert.deepEqual(source.calls.sort(), ['60054', '99999']);
    assert.equal(again.get('EVG01')?.name, 'Evergreen Health Plan');
    assert.equal(again.has('99999'), false, 'an unknown payer is shown by its id');
  });

  it('never holds a page past its wait: a slow answer shows the id now and the name next time', async () => {
    const source = countingSource(new Set(['60054']));
    const names = new PayerNames(source, { waitMs: 50 });
    assert.equal((await names.names(['60054'])).has('60054'), false);
    assert.equal(source.answers, 0, 'the page was answered before the service answered');
    await new Promise((resolve) => setTimeout(resolve, 350));
    assert.equal((await names.names(['60054'])).get('60054')?.name, 'Evergreen Health Plan');
    assert.equal(source.calls.length, 1, 'the fetch under way was not repeated');
  });
});
