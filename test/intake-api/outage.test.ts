import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { RETRY_AFTER_SECONDS } from '../../apps/intake-api/errors.js';
import { createLogger } from '../../src/logging.js';
import { connectClient, type TemporalClient } from '../../src/temporal/client.js';
import { testDataConverter } from '../../testing/codec.js';
import { TEST_INTAKE_KEY, v2Intake } from '../../testing/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../../testing/tcp-proxy.js';
import { testTemporal } from '../../testing/temporal.js';

// The run's dev server behind a TCP proxy: refusing connections there is a Temporal outage, as a stopped server is.
describe('intake API through a Temporal outage', function () {
  this.timeout(30_000);
  let proxy: TcpProxy;
  let temporal: TemporalClient;
  let api: FastifyInstance;

  before(async () => {
    proxy = await startTcpProxy(testTemporal().server.address);
    // The deadline stays at its default (30 s): failing fast must come from the connection, not from a short deadline.
    const config = loadConfig('intake', {
      INTAKE_API_KEY: TEST_INTAKE_KEY,
      LOG_LEVEL: 'silent',
      TEMPORAL_ADDRESS: proxy.address,
    });
    temporal = await connectClient(
      { ...config.temporal, namespace: testTemporal().server.namespace },
      { dataConverter: testDataConverter() },
    );
    api = createIntakeApi({
      config,
      client: temporal.client,
      taskQueue: 'outage-never-polled',
      logger: createLogger(config),
    });
  });
  after(async () => {
    await api?.close();
    await temporal?.close();
    await proxy?.close();
  });

  const start = () =>
    api.inject({
      method: 'POST',
      url: '/verifications',
      headers: { 'x-api-key': TEST_INTAKE_KEY },
      payload: v2Intake(),
    });

  it('answers 503 with Retry-After within seconds while Temporal is down, and 202 within about a second of its return', async () => {
    assert.equal((await start()).statusCode, 202);
    await proxy.refuse();
    const outageStarted = Date.now();
    for (let i = 0; i < 2; i++) {
      const before = Date.now();
      const response = await start();
      const took = Date.now() - before;
      assert.equal(response.statusCode, 503);
      assert.equal(response.headers['retry-after'], String(RETRY_AFTER_SECONDS));
      assert.ok(took < 4000, `a request during the outage took ${took} ms`);
    }
    await sleep(Math.max(0, 5000 - (Date.now() - outageStarted)));
    await proxy.accept();
    const back = Date.now();
    let status = 0;
    while (status !== 202 && Date.now() - back < 10_000) {
      status = (await start()).statusCode;
      if (status !== 202) await sleep(100);
    }
    const recovered = Date.now() - back;
    assert.equal(status, 202);
    assert.ok(recovered < 2500, `requests succeeded again ${recovered} ms after Temporal returned`);
  });
});
