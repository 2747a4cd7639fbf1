import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/free-port.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import { temporalLogger } from '../../workers/temporal-logger.js';
import { startWorkerProcess, type WorkerProcess } from '../../testing/worker-process.js';
import { workflowBundleFile } from '../../testing/bundle.js';
import { testCodecEnv } from '../../testing/codec.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { captureLogs } from '../../testing/log-capture.js';

/** Patient values that appear nowhere else: finding one in an output means it leaked. */
const PATIENT = { firstName: 'Phinnegan', lastName: 'Quixotelle', dateOfBirth: '03/14/1979', memberId: 'MPHI4455667' };
const PHI_VALUES = Object.values(PATIENT);

function assertNoPatientValue(text: string, where: string) {
  for (const value of PHI_VALUES) assert.ok(!text.includes(value), `${value} appears in ${where}`);
}

describe('the logger', () => {
  it('redacts patient fields wherever they appear in a logged object', () => {
    const out = captureLogs();
    const logger = createLogger(loadConfig('worker', { LOG_LEVEL: 'info' }), 'test', out.sink);
    logger.info(
      {
        workflowId: 'verification-abc',
        firstName: 'Secretworth',
        request: { patient: { lastName: 'Phionella', dateOfBirth: '04/05/1967' }, memberId: 'MBRPHI778899' },
        deep: { a: { address: '1 Hidden Lane' } },
        headers: { authorization: 'Bearer s3cr3t-token' },
      },
      'started',
    );
    const text = out.text();
    for (const value of ['Secretworth', 'Phionella', '04/05/1967', 'MBRPHI778899', '1 Hidden Lane', 's3cr3t-token']) {
      assert.ok(!text.includes(value), `${value} was logged`);
    }
    assert.match(text, /verification-abc/, 'identifiers are kept');
    assert.match(text, /\[redacted\]/);
  });

  it("leaves the logged object as it was (redaction works on a copy: the caller's request is not censored)", () => {
    const out = captureLogs();
    const logger = createLogger(loadConfig('worker', { LOG_LEVEL: 'info' }), 'test', out.sink);
    const request = { patient: { ...PATIENT }, payerId: '60054' };
    logger.info({ request }, 'sending');
    assert.deepEqual(request, { patient: PATIENT, payerId: '60054' });
    assertNoPatientValue(out.text(), 'the log');
  });

  it("redacts what the Temporal SDK logs through it (workflow and activity loggers' metadata)", () => {
    const out = captureLogs();
    const sdk = temporalLogger(createLogger(loadConfig('worker', { LOG_LEVEL: 'debug' }), 'worker', out.sink));
    sdk.log('INFO', 'Workflow started', { sdkComponent: 'workflow', workflowId: 'verification-abc', patient: PATIENT });
    sdk.warn('Activity failed', {
      sdkComponent: 'activity',
      request: { patient: PATIENT },
      memberId: PATIENT.memberId,
    });
    sdk.debug('core line', { sdkComponent: 'core' });
    const lines = out
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg, l.sdkComponent]),
      [
        ['info', 'Workflow started', 'workflow'],
        ['warn', 'Activity failed', 'activity'],
        ['debug', 'core line', 'core'],
      ],
    );
    assertNoPatientValue(out.text(), 'the SDK log');
  });
});

describe('no patient value in a worker process’s logs (SDK, workflows, activities) nor in any /metrics', function () {
  // A real `eligibility worker` (its logs at debug, where the SDK logs every workflow and activity) runs a
  // verification started through the intake API.
  this.timeout(120_000);
  let sandbox: TestSandbox;
  let worker: WorkerProcess | undefined;
  let intake: FastifyInstance;
  let workerMetrics: string;
  const key = 'an-intake-key-of-at-least-32-characters';

  before(async () => {
    const { server, client } = testTemporal();
    sandbox = await startTestSandbox();
    const taskQueue = `privacy-${randomUUID()}`;
    const httpPort = await freePort();
    worker = startWorkerProcess({
      ...testCodecEnv(),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ELIGIBILITY_BASE_URL: sandbox.url,
      ELIGIBILITY_CLIENT_ID: sandbox.config.clientId,
      ELIGIBILITY_CLIENT_SECRET: sandbox.config.clientSecret,
      WORKER_HTTP_PORT: String(httpPort),
      WORKER_WORKFLOW_BUNDLE: workflowBundleFile(),
      LOG_LEVEL: 'debug',
    });
    await worker.ready;

    const config = loadConfig('intake', { INTAKE_API_KEY: key, LOG_LEVEL: 'silent' });
    intake = createIntakeApi({
      config,
      client,
      taskQueue,
      logger: createLogger(config),
      timing: { graceSeconds: 0.2 },
    });
    const response = await intake.inject({
      method: 'POST',
      url: '/verifications',
      headers: { 'x-api-key': key },
      payload: {
        id: `privacy-${randomUUID()}`,
        patient: { ...PATIENT, state: 'NY' },
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'PRC',
      },
    });
    assert.equal(response.statusCode, 202, response.body);
    const { workflowId } = response.json<{ workflowId: string }>();
    const result = (await client.workflow.getHandle(workflowId).result()) as { outcome: string };
    assert.equal(result.outcome, 'completed');
    // The worker counts a workflow's end once the activation is done, which may be just after the result is seen.
    workerMetrics = await eventually(async () => {
      const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
      return /^eligibility_workflows_closed_total\{/m.test(text) ? text : undefined;
    });
  });

  after(async () => {
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    await intake?.close();
    await sandbox?.close();
  });

  it('writes the workflows’ and activities’ SDK logs as the project’s JSON lines, without patient values', () => {
    const output = worker!.output();
    const json = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // The SDK's own lines about each workflow (through the workflow logger sink) and activity, as pino wrote them.
    const about = (message: string, key: string, value: string) =>
      json.filter((l) => l.name === 'worker' && l.msg === message && l[key] === value);
    const messages = [...new Set(json.map((l) => String(l.msg)))].join(' | ');
    assert.ok(
      about('Workflow started', 'workflowType', 'verificationWorkflow').length > 0,
      `no workflow line: ${messages}`,
    );
    assert.ok(about('Activity completed', 'activityType', 'lookupPayer').length > 0, messages);
    assertNoPatientValue(output, "the worker's output");
    const [, base64Key] = testCodecEnv().CODEC_KEYS!.split(':');
    assert.ok(!output.includes(base64Key!), 'the codec key is not logged');
    assert.doesNotMatch(output, /"key":\{"type":"Buffer"/, "no key's bytes either");
  });

  it("shows no patient value in the worker's /metrics nor in this process's (intake API)", async () => {
    assert.match(workerMetrics, /^eligibility_workflows_closed_total\{/m);
    assertNoPatientValue(workerMetrics, "the worker's /metrics");
    const own = (await intake.inject({ url: '/metrics' })).body;
    assert.match(
      own,
      /^eligibility_http_requests_total\{server="intake",route="\/verifications",method="POST",status="202"\}/m,
    );
    assertNoPatientValue(own, "the intake API's /metrics");
  });
});
