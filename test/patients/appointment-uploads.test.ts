import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bookUpload } from '../../src/appointment-uploads/book-upload.js';
import { readAppointmentUpload } from '../../src/appointment-uploads/read-upload.js';
import { patientIdFor, readPatient, type Patients } from '../../src/patients/patients.js';
import { runCli } from '../../testing/run-cli.js';
import { FAST, TEST_INTAKE_KEY, callerId } from '../../testing/fixtures.js';
import { startIntakeApiHarness, type IntakeApiHarness } from '../../testing/intake-api-harness.js';
import { testTemporal } from '../../testing/temporal.js';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const HEADER =
  'appointmentRef,patientRef,firstName,lastName,dateOfBirth,memberId,payerId,dateOfService,specialtyCode,placeOfServiceCode';

/**
 * Schedule uploads (issue 35, decision 0052) through the library, the intake API and the CLI: the same file books
 * nothing twice, a moved date reschedules, a missing row cancels nothing. Offsets far ahead: nothing is verified.
 */
describe('schedule uploads', function () {
  this.timeout(90_000);
  let h: IntakeApiHarness;
  const idKey = randomBytes(32);
  let patients: Patients;
  let dir: string;

  before(async () => {
    h = await startIntakeApiHarness({ patients: { idKey, verificationTiming: FAST } });
    patients = { client: testTemporal().client, taskQueue: h.harness.taskQueue, idKey };
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-uploads-'));
  });
  after(async () => {
    await h?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const schedule = (rows: [ref: string, mrn: string, date: string][]) =>
    new TextEncoder().encode(
      [
        HEADER,
        ...rows.map(([ref, mrn, date]) => `${ref},${mrn},Ada,Lovelace,12/10/1985,M1234567,60054,${date},PRC,11`),
      ].join('\n'),
    );
  const upload = (bytes: Uint8Array, tenant = 'clinic-a') =>
    bookUpload(patients, readAppointmentUpload(bytes, 'csv'), { tenant });

  it('books a file once: again, every row is unchanged', async () => {
    const [a, b] = [callerId('MRN'), callerId('MRN')];
    const file = schedule([
      ['V-1', a, inDays(20)],
      ['V-2', a, inDays(27)],
      ['V-1', b, inDays(20)],
    ]);
    const first = await upload(file);
    assert.deepEqual(first.counts, { booked: 3, rescheduled: 0, unchanged: 0, rejected: 0, failed: 0 });
    const again = await upload(file);
    assert.deepEqual(again.counts, { booked: 0, rescheduled: 0, unchanged: 3, rejected: 0, failed: 0 });
    assert.deepEqual(
      again.results.map((r) => r.appointmentId),
      first.results.map((r) => r.appointmentId),
    );
    const view = await readPatient(patients, patientIdFor(patients, 'clinic-a', a));
    assert.equal(view.appointments.length, 2);
  });

  it('reschedules a row whose date moved, and cancels none that the new file lacks', async () => {
    const mrn = callerId('MRN');
    await upload(
      schedule([
        ['V-1', mrn, inDays(20)],
        ['V-2', mrn, inDays(21)],
      ]),
    );
    const moved = await upload(schedule([['V-1', mrn, inDays(22)]]));
    assert.deepEqual(moved.counts, { booked: 0, rescheduled: 1, unchanged: 0, rejected: 0, failed: 0 });
    const view = await readPatient(patients, patientIdFor(patients, 'clinic-a', mrn));
    const byDate = view.appointments.map((a) => [a.dateOfService, a.status]).sort();
    assert.deepEqual(byDate, [
      [inDays(21), 'scheduled'],
      [inDays(22), 'scheduled'],
    ]);
    const rescheduled = view.appointments.find((a) => a.dateOfService === inDays(22))!;
    assert.ok(
      rescheduled.checks.every((c) => c.state === 'waiting' && c.at > rescheduled.dayStartsAt - 4 * 86_400_000),
    );
  });

  it('rejects a row by field (a past visit, a cancelled appointment) and books the rest', async () => {
    const mrn = callerId('MRN');
    const first = await upload(schedule([['V-1', mrn, inDays(20)]]));
    const cancel = await h.api.inject({
      method: 'DELETE',
      url: `/appointments/${first.results[0]!.appointmentId}`,
      headers: { 'x-api-key': TEST_INTAKE_KEY },
    });
    assert.equal(cancel.statusCode, 200);
    const next = await upload(
      schedule([
        ['V-1', mrn, inDays(23)],
        ['V-2', mrn, inDays(-3)],
        ['V-3', mrn, inDays(25)],
      ]),
    );
    assert.deepEqual(
      next.results.map((r) => [r.row, r.status, r.param]),
      [
        [1, 'rejected', 'appointmentRef'],
        [2, 'rejected', 'dateOfService'],
        [3, 'booked', undefined],
      ],
    );
  });

  it('POST /appointments/uploads answers row by row as JSON Lines, then the counts', async () => {
    const mrn = callerId('MRN');
    const body = Buffer.from(
      schedule([
        ['V-1', mrn, inDays(20)],
        ['V-2', mrn, '2031-02-30'],
      ]),
    );
    const post = () =>
      h.api.inject({
        method: 'POST',
        url: '/appointments/uploads',
        headers: { 'x-api-key': TEST_INTAKE_KEY, 'content-type': 'text/csv' },
        payload: body,
      });
    const response = await post();
    assert.equal(response.statusCode, 200, response.body);
    assert.match(response.headers['content-type'] as string, /application\/x-ndjson/);
    const lines = response.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines.at(-1), {
      done: true,
      counts: { booked: 1, rescheduled: 0, unchanged: 0, rejected: 1, failed: 0 },
    });
    const rejected = lines.find((l) => l.status === 'rejected')!;
    assert.deepEqual([rejected.row, rejected.line, rejected.param], [2, 3, 'dateOfService']);
    assert.doesNotMatch(response.body, new RegExp(`${mrn}|Lovelace|2031-02-30`));
    const again = (await post()).body.trim().split('\n').at(-1);
    assert.deepEqual(JSON.parse(again!), {
      done: true,
      counts: { booked: 0, rescheduled: 0, unchanged: 1, rejected: 1, failed: 0 },
    });
    const malformed = await h.api.inject({
      method: 'POST',
      url: '/appointments/uploads',
      headers: { 'x-api-key': TEST_INTAKE_KEY, 'content-type': 'text/csv' },
      payload: 'appointmentRef,nickname\nA,B\n',
    });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json<{ param: string }>().param, 'body');
  });

  it('`eligibility appointments upload` books a file with progress, and again books nothing', async () => {
    const mrn = callerId('MRN');
    const file = path.join(dir, 'monday.csv');
    await fs.writeFile(
      file,
      schedule([
        ['V-1', mrn, inDays(20)],
        ['V-2', mrn, inDays(21)],
        ['V-3', mrn, 'soon'],
      ]),
    );
    const env = {
      TEMPORAL_ADDRESS: testTemporal().server.address,
      TEMPORAL_NAMESPACE: testTemporal().server.namespace,
      TEMPORAL_TASK_QUEUE: h.harness.taskQueue,
      PATIENT_ID_KEY: idKey.toString('base64'),
    };
    const first = await runCli(['appointments', 'upload', file, '--tenant', 'clinic-a'], env);
    assert.equal(first.code, 2, first.stderr);
    assert.match(first.stdout, /row 3 \(line 4\): rejected, dateOfService/);
    assert.match(first.stdout, /3 rows: 2 booked, 0 rescheduled, 0 unchanged, 1 rejected, 0 failed/);
    assert.match(first.stderr, /3\/3 rows \(100%\)/);
    assert.doesNotMatch(first.stdout + first.stderr, new RegExp(`${mrn}|Lovelace|soon`));
    const again = await runCli(['appointments', 'upload', file, '--tenant', 'clinic-a'], env);
    assert.match(again.stdout, /3 rows: 0 booked, 0 rescheduled, 2 unchanged, 1 rejected, 0 failed/);
    const view = await readPatient(patients, patientIdFor(patients, 'clinic-a', mrn));
    assert.equal(view.appointments.length, 2);
  });
});
