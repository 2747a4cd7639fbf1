import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../src/config.js';
import { findTemporalCli } from '../../apps/dev/temporal-cli.js';
import { freePort } from '../../src/free-port.js';
import { startDevServer, type DevServer } from '../../apps/dev/temporal-dev-server.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { startWorkerProcess, type WorkerProcess } from '../../testing/worker-process.js';
import { workflowBundleFile } from '../../testing/bundle.js';
import { testCodecEnv, testDataConverter } from '../../testing/codec.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { eventually } from '../../testing/workflow-harness.js';

const status = async (url: string) => (await fetch(url)).status;

describe("the worker's /metrics, /healthz and /readyz (eligibility worker, its own Temporal dev server)", function () {
  // A worker process and a dev server started, stopped and started again.
  this.timeout(180_000);
  let cliPath: string;
  let temporalPort: number;
  let server: DevServer;
  let sandbox: TestSandbox;
  let worker: WorkerProcess;
  let base: string;
  let taskQueue: string;

  before(async () => {
    cliPath = await findTemporalCli(loadConfig('dev').temporal);
    temporalPort = await freePort();
    server = await startDevServer({ cliPath, port: temporalPort });
    sandbox = await startTestSandbox();
    const httpPort = await freePort();
    base = `http://127.0.0.1:${httpPort}`;
    taskQueue = `observability-${randomUUID()}`;
    worker = startWorkerProcess({
      ...testCodecEnv(),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ELIGIBILITY_BASE_URL: sandbox.url,
      ELIGIBILITY_CLIENT_ID: sandbox.config.clientId,
      ELIGIBILITY_CLIENT_SECRET: sandbox.config.clientSecret,
      WORKER_HTTP_PORT: String(httpPort),
      WORKER_WORKFLOW_BUNDLE: workflowBundleFile(),
      LOG_LEVEL: 'warn',
    });
    await worker.ready;
  });

  after(async () => {
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    await server?.stop();
    await sandbox?.close();
  });

  it("serves the Temporal SDK's metrics and the project's in one scrape", async () => {
    const connection = await Connection.connect({ address: server.address });
    try {
      const client = new Client({ connection, dataConverter: testDataConverter() });
      const { workflowId } = await startVerification(
        client,
        {
          id: `metrics-${randomUUID()}`,
          patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', state: 'NY', memberId: 'M1' },
          payerId: '60054',
          placeOfServiceCode: '11',
          specialtyCode: 'PRC',
        },
        { taskQueue, timing: { graceSeconds: 0.2 } },
      );
      const result = (await client.workflow.getHandle(workflowId).result()) as { outcome: string };
      assert.equal(result.outcome, 'completed');
    } finally {
      await connection.close();
    }

    const response = await fetch(`${base}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    // The worker reports a workflow's end (a sink call) once the activation is done, which may be just after the
    // client sees the result.
    const closed =
      /^eligibility_workflows_closed_total\{workflow_type="verificationWorkflow",outcome="completed"\} 1$/m;
    const text = await eventually(async () => {
      const scraped = await (await fetch(`${base}/metrics`)).text();
      return closed.test(scraped) ? scraped : undefined;
    });
    // The SDK's (Rust core) metrics: workflow completions, and its gRPC requests to the server.
    assert.match(text, /^temporal_workflow_completed\{.*\} 1$/m, `no SDK metrics in:\n${text.slice(0, 2000)}`);
    assert.match(text, /^temporal_request\{/m);
    // The project's: how the workflow ended, its stages, the service calls by route template, Node's own.
    assert.match(
      text,
      /^eligibility_workflows_closed_total\{workflow_type="verificationWorkflow",outcome="completed"\} 1$/m,
    );
    assert.match(text, /^eligibility_verification_stage_entered_total\{stage="creating"\} 1$/m);
    assert.match(
      text,
      /^eligibility_service_requests_total\{endpoint="GET \/v1\/payers\/\{payerId\}",status="200"\} 1$/m,
    );
    assert.match(text, /^eligibility_service_requests_total\{endpoint="POST \/v2\/verifications",status="\d+"\} 1$/m);
    assert.match(text, /^process_resident_memory_bytes /m);
    // One scrape, one definition per metric family: the two sources share no name.
    const families = [...text.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name);
    assert.deepEqual(
      families.filter((name, i) => families.indexOf(name) !== i),
      [],
    );
    // In the labels only: a sample's value could hold these digits by chance.
    assert.ok(!/\{[^}\n]*60054/.test(text), 'no payer id in a label');
  });

  it('answers /healthz while alive, and /readyz 503 while Temporal is stopped and 200 once it is back', async () => {
    assert.equal(await status(`${base}/healthz`), 200);
    assert.equal(await status(`${base}/readyz`), 200);

    await server.stop();
    await eventually(async () => ((await status(`${base}/readyz`)) === 503 ? true : undefined), 15_000, '503');
    assert.equal(await status(`${base}/healthz`), 200, 'alive all the same');

    server = await startDevServer({ cliPath, port: temporalPort });
    await eventually(async () => ((await status(`${base}/readyz`)) === 200 ? true : undefined), 30_000, '200 again');
  });
});
