import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { freePort } from '../../src/free-port.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { readPatient } from '../../src/patients/patients.js';
import { dayStartsAt } from '../../src/patients/visit-day.js';
import { putRefreshSchedule } from '../../src/schedules/refresh-schedules.js';
import { patientRefreshVerificationId, patientWorkflowId, refreshScheduleId } from '../../workflows/shared/ids.js';
import type { RefreshProgress } from '../../workflows/refresh/refresh.js';
import { startWorkerProcess, type WorkerProcess } from '../../testing/worker-process.js';
import { workflowBundleFile } from '../../testing/bundle.js';
import { testCodecEnv } from '../../testing/codec.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { runCli } from '../../testing/run-cli.js';
import { captureLogs } from '../../testing/log-capture.js';

/** Patient values that appear nowhere else, and the practice's reference (a medical record number is PHI too). */
const PATIENT = { firstName: 'Phelicity', lastName: 'Obscurant', dateOfBirth: '07/21/1971', memberId: 'MPHI9081726' };
const PATIENT_REF = `MRN-PHI-${randomUUID().slice(0, 8)}`;
const DATE_OF_SERVICE = new Date().toISOString().slice(0, 10);
/** A second patient, booked by a schedule upload (by the intake API, then by the CLI), and the upload's references. */
const UPLOADED = { firstName: 'Quintessa', lastName: 'Unrevealed', dateOfBirth: '03/14/1966', memberId: 'MUPL5546372' };
const UPLOAD_REF = `MRN-UPL-${randomUUID().slice(0, 8)}`;
const APPOINTMENT_REF = `APT-UPL-${randomUUID().slice(0, 8)}`;
const SECRETS = [...Object.values(PATIENT), PATIENT_REF, ...Object.values(UPLOADED), UPLOAD_REF, APPOINTMENT_REF];

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
  let uploadedPatientId: string;
  let workerHttpPort: number;
  const uploadAnswers: string[] = [];
  let cliOutput = '';
  const intakeLogs = captureLogs();
  const key = 'an-intake-key-of-at-least-32-characters';
  const idKey = randomBytes(32);

  before(async () => {
    const { server, client } = testTemporal();
    sandbox = await startTestSandbox();
    taskQueue = `privacy-patients-${randomUUID()}`;
    workerHttpPort = await freePort();
    worker = startWorkerProcess({
      ...testCodecEnv(),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ELIGIBILITY_BASE_URL: sandbox.url,
      ELIGIBILITY_CLIENT_ID: sandbox.config.clientId,
      ELIGIBILITY_CLIENT_SECRET: sandbox.config.clientSecret,
      WORKER_HTTP_PORT: String(workerHttpPort),
      WORKER_WORKFLOW_BUNDLE: workflowBundleFile(),
      ELIGIBILITY_DISCOVERY_CREATE_PATH: '/sandbox/discoveries',
      LOG_LEVEL: 'debug',
    });
    await worker.ready;
    const config = loadConfig('intake', { INTAKE_API_KEY: key, LOG_LEVEL: 'debug' });
    const firstIn = Math.round((Date.now() - dayStartsAt(DATE_OF_SERVICE, 'UTC')) / 1000) + 1;
    intake = createIntakeApi({
      config,
      client,
      taskQueue,
      logger: createLogger(config, 'eligibility', intakeLogs.sink),
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

    // A schedule upload: a row the patient refuses by a value (a bad date of birth), then the same file again with
    // the date moved (a reschedule), through the intake API; then through the CLI.
    const schedule = (dateOfService: string, dateOfBirth = UPLOADED.dateOfBirth) =>
      'appointmentRef,patientRef,firstName,lastName,dateOfBirth,memberId,payerId,dateOfService,specialtyCode,placeOfServiceCode\n' +
      `${APPOINTMENT_REF},${UPLOAD_REF},${UPLOADED.firstName},${UPLOADED.lastName},${dateOfBirth},${UPLOADED.memberId},60054,${dateOfService},PRC,11\n` +
      `${APPOINTMENT_REF}-2,${UPLOAD_REF},${UPLOADED.firstName},${UPLOADED.lastName},${UPLOADED.lastName},${UPLOADED.memberId},60054,${dateOfService},PRC,11\n`;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const file of [schedule(DATE_OF_SERVICE), schedule(tomorrow)]) {
      const answer = await intake.inject({
        method: 'POST',
        url: '/appointments/uploads',
        headers: { 'x-api-key': key, 'content-type': 'text/csv' },
        payload: file,
      });
      assert.equal(answer.statusCode, 200, answer.body);
      uploadAnswers.push(answer.body);
    }
    assert.match(uploadAnswers[0]!, /"status":"booked"/);
    assert.match(uploadAnswers[1]!, /"status":"rescheduled"/);
    uploadedPatientId = uploadAnswers[0]!
      .split('\n')
      .filter((line) => line.includes('"booked"'))
      .map((line) => (JSON.parse(line) as { patientId: string }).patientId)[0]!;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'privacy-upload-'));
    try {
      const file = path.join(dir, 'schedule.csv');
      await fs.writeFile(file, schedule(DATE_OF_SERVICE));
      const cli = await runCli(['appointments', 'upload', file], {
        TEMPORAL_ADDRESS: server.address,
        TEMPORAL_NAMESPACE: server.namespace,
        TEMPORAL_TASK_QUEUE: taskQueue,
        PATIENT_ID_KEY: idKey.toString('base64'),
        LOG_LEVEL: 'debug',
      });
      cliOutput = cli.stdout + cli.stderr;
      assert.match(cli.stdout, /2 rows: 0 booked, 1 rescheduled, 0 unchanged, 1 rejected, 0 failed/, cliOutput);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
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
    for (const workflowId of [
      patientWorkflowId(patientId),
      verificationWorkflowId,
      patientWorkflowId(uploadedPatientId),
    ]) {
      assertNoLeak(workflowId, 'a workflow id');
      const described = await client.workflow.getHandle(workflowId).describe();
      assertNoLeak(asText(described.raw.workflowExecutionInfo?.searchAttributes), `${workflowId}'s search attributes`);
      assertNoLeak(asText(described.raw.workflowExecutionInfo?.memo), `${workflowId}'s memo`);
    }
  });

  it('keeps them out of the histories in plaintext (every payload encrypted)', async () => {
    const { client } = testTemporal();
    for (const workflowId of [
      patientWorkflowId(patientId),
      verificationWorkflowId,
      patientWorkflowId(uploadedPatientId),
    ]) {
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
      // Both active: the patient booked through the API and the one uploaded with the schedule file.
      assert.equal(result.patients, 2);
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
    assertNoLeak(intakeLogs.text(), "the intake API's logs");
    assertNoLeak((await intake.inject({ url: '/metrics' })).body, "the intake API's /metrics");
    const workerMetrics = await (await fetch(`http://127.0.0.1:${workerHttpPort}/metrics`)).text();
    assert.match(workerMetrics, /temporal_/, "the worker's /metrics answered");
    assertNoLeak(workerMetrics, "the worker's /metrics");
  });

  it('keeps them out of a schedule upload’s answers and the CLI’s output', () => {
    uploadAnswers.forEach((answer, i) => assertNoLeak(answer, `upload ${i + 1}'s answer`));
    assert.match(uploadAnswers[0]!, /"param":"patient.dateOfBirth"/);
    assertNoLeak(cliOutput, '`eligibility appointments upload`');
  });
});
