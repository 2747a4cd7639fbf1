import assert from 'node:assert/strict';
import { EligibilityClient, NetworkError, RateLimitError } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { recordServiceExchange, setGovernedRate } from '../../src/metrics/project-metrics.js';
import { scrape } from '../../src/metrics/registry.js';
import { json, startLocalServer } from '../client/local-server.js';
import { sample } from './scrape.js';

/** A client of the service at `baseUrl` that reports its exchanges to the metrics, as the worker's does. */
const client = (baseUrl: string) =>
  new EligibilityClient({ ...loadConfig('worker', {}).service, baseUrl }, { onExchange: recordServiceExchange });

describe('metrics of the calls to the service', () => {
  const PAYER = 'GET /v1/payers/{payerId}';

  it('counts calls by route template and status, and 429s apart, never with the ids of the path', async () => {
    const before = await scrape();
    const service = await startLocalServer((_req, res) => json(res, 429, { error: 'Too many requests' }));
    try {
      await assert.rejects(client(service.url).getPayer('PAYER-QZXWVK'), RateLimitError);
    } finally {
      await service.close();
    }
    const text = await scrape();
    assert.equal(
      sample(text, `eligibility_service_requests_total{endpoint="${PAYER}",status="429"}`),
      sample(before, `eligibility_service_requests_total{endpoint="${PAYER}",status="429"}`) + 1,
    );
    assert.equal(
      sample(text, `eligibility_service_rate_limited_total{endpoint="${PAYER}"}`),
      sample(before, `eligibility_service_rate_limited_total{endpoint="${PAYER}"}`) + 1,
    );
    assert.equal(
      sample(text, 'eligibility_service_requests_total{endpoint="POST /oauth/token",status="200"}'),
      sample(before, 'eligibility_service_requests_total{endpoint="POST /oauth/token",status="200"}') + 1,
    );
    // Letters, not digits: a number in some other sample could hold digits by chance.
    assert.ok(!text.includes('QZXWVK'), 'no id of a path in the metrics');
  });

  it('counts a call that got no answer by its network error code', async () => {
    // The token request is the first call, and the one refused.
    const series = 'eligibility_service_requests_total{endpoint="POST /oauth/token",status="ECONNREFUSED"}';
    const before = sample(await scrape(), series);
    // A port just freed: nothing listens there.
    const closed = await startLocalServer(() => undefined);
    await closed.close();
    await assert.rejects(client(closed.url).getPayer('60054'), NetworkError);
    assert.equal(sample(await scrape(), series), before + 1);
  });

  it("exposes the governor's rate as a gauge", async () => {
    setGovernedRate(12.5);
    assert.equal(sample(await scrape(), 'eligibility_governed_rate_per_second'), 12.5);
  });
});
