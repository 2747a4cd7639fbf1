import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { freePort } from '../../apps/dev/temporal-dev-server.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { readPatient } from '../../src/patients/patients.js';
import { dayStartsAt } from '../../src/patients/visit-day.js';
import { putRefreshSchedule } from '../../src/schedules/refresh-schedules.js';
import { patientRefreshVerificationId, patientWorkflowId, refreshScheduleId } from '../../workflows/shared/ids.js';
import type { RefreshProgress } from '../../workflows/shared/refresh-types.js';
import { startWorkerProcess, type WorkerProcess } from '../deploy/worker-process.js';
import { workflowBundleFile } from '../setup/bundle.js';
import { testCodecEnv } from '../setup/codec.js';
import { startTestSandbox, type TestSandbox } from '../setup/sandbox.js';
import { testTemporal } from '../setup/temporal.js';
import { eventually } from '../setup/workflow-harness.js';

/** Patient values that appear nowhere else, and the practice's reference (a medical record number is PHI too). */
const PATIENT = { firstName: 'Phelicity', lastName: 'Obscurant', dateOfBirth: '07/21/1971', memberId: 'MPHI9081726' };
const PATIENT_REF = `MRN-PHI-${randomUUID().slice(0, 8)}`;
const DATE_OF_SERVICE = new Date().toISOString().slice(0, 10);
const SECRETS = [...Object.values(PATIENT), PATIENT_REF];

const leaks = (text: string) => SECRETS.filter((value) => text.includes(value));
/** A history or description as text, its payloads' bytes read as UTF-8 (so plaintext would show). */
const asText = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v));

/**
 * Patients and appointments (issue 35): a real `eligibility worker` at debug runs a patient booked through the intake
 * API and the verification it starts; no patient value, nor the practice's reference, reaches a workflow id, a search
 * attribute, a history in plaintext, a log line or /metrics.
 */
describe('no patient data in patients’ and appointments’ ids, search attributes, histories, logs or metrics', function () {
  this.timeout(120_000);
  let sandbox: TestSandbox;
  let worker: WorkerProcess | undefined;
  let intake: FastifyInstance;
  let patientId: string;
  let verificationWorkflowId: string;
  let taskQueue: string;
  const intakeLogs: string[] = [];
  const key = 'an-intake-key-of-at-least-32-characters';
  const idKey = randomBytes(32);

  before(async () => {
    const { server, client } = testTemporal();
    sandbox = await startTestSandbox();
    taskQueue = `privacy-patients-${randomUUID()}`;
    worker = startWorkerProcess({
      ...testCodecEnv(),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ELIGIBILITY_BASE_URL: sandbox.url,
      ELIGIBILITY_CLIENT_ID: sandbox.config.clientId,
      ELIGIBILITY_CLIENT_SECRET: sandbox.config.clientSecret,
      WORKER_HTTP_PORT: String(await freePort()),
      WORKER_WORKFLOW_BUNDLE: workflowBundleFile(),
      ELIGIBILITY_DISCOVERY_CREATE_PATH: '/sandbox/discoveries',
      LOG_LEVEL: 'debug',
    });
    await worker.ready;
    const config = loadConfig({ INTAKE_API_KEY: key, LOG_LEVEL: 'debug' });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        intakeLogs.push(chunk.toString());
        done();
      },
    });
    const firstIn = Math.round((Date.now() - dayStartsAt(DATE_OF_SERVICE, 'UTC')) / 1000) + 1;
    intake = createIntakeApi({
      config,
      client,
      taskQueue,
      logger: createLogger(config, 'eligibility', sink),
      patients: {
        idKey,
        policy: { offsets: [{ offsetSeconds: firstIn, reuseWithinSeconds: 0 }] },
        verificationTiming: { graceSeconds: 0.2 },
      },
    });
    const body = {
      patientRef: PATIENT_REF,
      patient: { ...PATIENT, state: 'NY' },
      payerId: '60054',
      dateOfService: DATE_OF_SERVICE,
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
    };
    const refused = await intake.inject({
      method: 'POST',
      url: '/appointments',
      headers: { 'x-api-key': key },
      payload: { ...body, patient: { ...body.patient, nickname: PATIENT.firstName } },
    });
    assert.equal(refused.statusCode, 400);
    assertNoLeak(refused.body, 'a refusal');
    const booked = await intake.inject({
      method: 'POST',
      url: '/appointments',
      headers: { 'x-api-key': key },
      payload: body,
    });
    assert.equal(booked.statusCode, 201, booked.body);
    patientId = booked.json<{ patientId: string }>().patientId;
    const view = await eventually(
      async () => {
        const v = await readPatient({ client, taskQueue, idKey }, patientId);
        return v.timeline.length > 0 ? v : undefined;
      },
      60_000,
      'the check',
    );
    assert.equal(view.timeline[0]!.coverage, 'covered');
    verificationWorkflowId = view.timeline[0]!.workflowId;
  });

  after(async () => {
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    await intake?.close();
    await sandbox?.close();
  });

  function assertNoLeak(text: string, where: string) {
    assert.deepEqual(leaks(text), [], `${where} holds patient data`);
  }

  it('keeps patient values and the reference out of workflow ids and search attributes', async () => {
    const { client } = testTemporal();
    for (const workflowId of [patientWorkflowId(patientId), verificationWorkflowId]) {
      assertNoLeak(workflowId, 'a workflow id');
      const described = await client.workflow.getHandle(workflowId).describe();
      assertNoLeak(asText(described.raw.workflowExecutionInfo?.searchAttributes), `${workflowId}'s search attributes`);
      assertNoLeak(asText(described.raw.workflowExecutionInfo?.memo), `${workflowId}'s memo`);
    }
  });

  it('keeps them out of the histories in plaintext (every payload encrypted)', async () => {
    const { client } = testTemporal();
    for (const workflowId of [patientWorkflowId(patientId), verificationWorkflowId]) {
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      assertNoLeak(asText(history), `${workflowId}'s history`);
    }
  });

  it('keeps them out of the monthly refresh: its schedule, ids, search attributes and histories', async () => {
    const { client } = testTemporal();
    await putRefreshSchedule(client, taskQueue, {
      tenant: 'default',
      everySeconds: 86_400,
      paused: true,
      policy: { settleSeconds: 0.5 },
    });
    const schedule = client.schedule.getHandle(refreshScheduleId('default'));
    try {
      await schedule.trigger();
      const refreshId = await eventually(
        async () => (await schedule.describe()).info.recentActions[0]?.action.workflow.workflowId,
        30_000,
        'the refresh',
      );
      const result = (await client.workflow.getHandle(refreshId).result()) as RefreshProgress;
      assert.equal(result.patients, 1);
      const refreshed = patientRefreshVerificationId(patientId, refreshId);
      assertNoLeak(asText((await schedule.describe()).raw), 'the schedule');
      for (const workflowId of [refreshId, refreshed, patientWorkflowId(patientId)]) {
        assertNoLeak(workflowId, 'a workflow id');
        const described = await client.workflow.getHandle(workflowId).describe();
        assertNoLeak(
          asText(described.raw.workflowExecutionInfo?.searchAttributes),
          `${workflowId}'s search attributes`,
        );
        assertNoLeak(asText(described.raw.workflowExecutionInfo?.memo), `${workflowId}'s memo`);
        assertNoLeak(asText(await client.workflow.getHandle(workflowId).fetchHistory()), `${workflowId}'s history`);
      }
    } finally {
      await schedule.delete();
    }
  });

  it("keeps them out of the worker's and the intake API's logs and metrics", async () => {
    const output = worker!.output();
    assert.match(output, /patientWorkflow/, 'the worker logged the patient workflow (debug)');
    assertNoLeak(output, "the worker's output");
    assertNoLeak(intakeLogs.join(''), "the intake API's logs");
    assertNoLeak((await intake.inject({ url: '/metrics' })).body, "the intake API's /metrics");
  });
});
