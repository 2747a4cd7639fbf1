import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { EncryptionCodec } from '../../src/codec/encryption-codec.js';
import { createCodecServer } from '../../apps/codec-server/server.js';
import { loadConfig } from '../../src/config.js';
import { findTemporalCli } from '../../apps/dev/temporal-cli.js';
import { freePort } from '../../src/free-port.js';
import { startDevServer, type DevServer } from '../../apps/dev/temporal-dev-server.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import { scrape } from '../../src/metrics/registry.js';
import { connectClient, type TemporalClient } from '../../src/temporal/client.js';
import { createWebhookReceiver } from '../../apps/receiver/index.js';
import { testCodecKeys, testDataConverter } from '../../testing/codec.js';
import { captureLogs } from '../../testing/log-capture.js';
import { eventually } from '../../testing/workflow-harness.js';
import { deliver, delivery, SECRET } from '../webhook/deliveries.js';
import { sample } from './scrape.js';

const API_KEY = 'an-intake-key-of-at-least-32-characters';

describe('/healthz, /readyz and /metrics of the intake API, webhook receiver and codec server', function () {
  // A dev server of its own, stopped and started again.
  this.timeout(120_000);
  let cliPath: string;
  let port: number;
  let server: DevServer;
  let temporal: TemporalClient;
  let intake: FastifyInstance;
  let receiver: FastifyInstance;
  let codec: FastifyInstance;

  before(async () => {
    cliPath = await findTemporalCli(loadConfig('dev').temporal);
    port = await freePort();
    server = await startDevServer({ cliPath, port });
    const config = loadConfig('dev', {
      TEMPORAL_ADDRESS: server.address,
      INTAKE_API_KEY: API_KEY,
      WEBHOOK_SIGNING_SECRET: SECRET,
      LOG_LEVEL: 'silent',
    });
    temporal = await connectClient(config.temporal, { dataConverter: testDataConverter() });
    const common = { config, client: temporal.client, taskQueue: 'unused', logger: createLogger(config) };
    intake = createIntakeApi({ ...common, readyTimeoutMs: 500 });
    receiver = createWebhookReceiver({ ...common, readyTimeoutMs: 500 });
    codec = createCodecServer({
      codec: new EncryptionCodec(testCodecKeys()),
      findPerson: () => Promise.resolve(undefined),
      tenantOf: () => Promise.resolve(null),
      audit: () => Promise.resolve(),
      origins: [],
      namespace: 'default',
      logger: createLogger(config),
    });
  });

  after(async () => {
    await Promise.all([intake?.close(), receiver?.close(), codec?.close()]);
    await temporal?.close();
    await server?.stop();
  });

  const statuses = async (path: string) =>
    Promise.all([intake, receiver, codec].map(async (app) => (await app.inject({ url: path })).statusCode));

  it("log one line per intake request, its route's template and status, and probes at debug only", async () => {
    const logs = captureLogs();
    const config = loadConfig('intake', {
      TEMPORAL_ADDRESS: server.address,
      INTAKE_API_KEY: API_KEY,
      LOG_LEVEL: 'debug',
    });
    const logger = createLogger(config, 'eligibility', logs.sink);
    const api = createIntakeApi({ config, client: temporal.client, taskQueue: 'unused', logger, readyTimeoutMs: 500 });
    try {
      const answer = await api.inject({ url: '/verifications/verification-QZXWVK', headers: { 'x-api-key': API_KEY } });
      assert.equal((await api.inject({ url: '/healthz' })).statusCode, 200);
      const lines = logs.records<{
        msg: string;
        level: string;
        method?: string;
        route?: string;
        status?: number;
        ms?: number;
      }>();
      const requests = lines.filter((line) => line.msg === 'intake request');
      assert.deepEqual(
        requests.map(({ level, method, route, status }) => ({ level, method, route, status })),
        [
          { level: 'info', method: 'GET', route: '/verifications/:workflowId', status: answer.statusCode },
          { level: 'debug', method: 'GET', route: '/healthz', status: 200 },
        ],
      );
      assert.ok(
        requests.every((line) => typeof line.ms === 'number'),
        'each line says how long the request took',
      );
      assert.deepEqual(
        lines.filter((line) => /incoming request|request completed/.test(line.msg)),
        [],
        "Fastify's own request lines are off",
      );
      assert.doesNotMatch(logs.text(), /QZXWVK/, 'the URL, which carries ids, is not logged');
    } finally {
      await api.close();
    }
  });

  it('answer /healthz and /readyz without credentials while Temporal serves', async () => {
    assert.deepEqual(await statuses('/healthz'), [200, 200, 200]);
    assert.deepEqual(await statuses('/readyz'), [200, 200, 200]);
  });

  it('turn /readyz to 503 while Temporal is stopped and back to 200 when it returns (the codec server needs no Temporal)', async () => {
    await server.stop();
    await eventually(
      async () => ((await statuses('/readyz')).join() === '503,503,200' ? true : undefined),
      15_000,
      '503 from the intake API and the receiver',
    );
    const body = (await intake.inject({ url: '/readyz' })).json<{ status: string }>();
    assert.equal(body.status, 'unavailable');
    assert.deepEqual(await statuses('/healthz'), [200, 200, 200], 'alive all the same');

    server = await startDevServer({ cliPath, port });
    await eventually(
      async () => ((await statuses('/readyz')).join() === '200,200,200' ? true : undefined),
      30_000,
      '200 again',
    );
  });

  it('count intake requests by route template and status, never by the URL with its ids', async () => {
    const series =
      'eligibility_http_requests_total{server="intake",route="/verifications/:workflowId",method="GET",status="401"}';
    const before = sample(await scrape(), series);
    const refused = await intake.inject({ url: '/verifications/verification-caller-QZXWVK' });
    assert.equal(refused.statusCode, 401);
    const response = await intake.inject({ url: '/metrics' });
    assert.equal(response.statusCode, 200, '/metrics needs no API key');
    assert.equal(sample(response.body, series), before + 1);
    // Letters, not digits: a number in some other sample could hold digits by chance.
    assert.ok(!response.body.includes('QZXWVK'), 'no id from a URL in the metrics');
  });

  it('count webhook deliveries by result', async () => {
    const count = async (result: string) =>
      sample(await scrape(), `eligibility_webhook_deliveries_total{result="${result}"}`);
    const [unauthorized, ignored] = [await count('unauthorized'), await count('ignored')];
    assert.equal((await deliver(receiver, delivery('x.y', {}), { secret: 'wrong-secret' })).statusCode, 401);
    assert.equal((await deliver(receiver, delivery('sandbox.unknown', { discoveryId: 'd-1' }))).statusCode, 200);
    assert.equal(await count('unauthorized'), unauthorized + 1);
    assert.equal(await count('ignored'), ignored + 1);
  });
});
