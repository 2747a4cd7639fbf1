/**
 * `npm run bench:month [-- --patients 10000 --appointments 12000 --day-seconds 60 --lead-seconds 600 --concurrency 32]
 * [--env NAME=value]`: a time-compressed month (issue 35, decision 0053). The appointments are booked through the
 * schedule upload, visits spread over 30 days of `--day-seconds` each with the default check policy scaled to that
 * day; while the month runs, 5% are rescheduled and 5% cancelled. Counted from the sandbox's own record of the
 * verifications it created (each attributed to its patient through the verification id the patient's timeline holds)
 * and from the patients' state: appointments verified inside their window, verifications twice in one reuse window,
 * cancelled ones verified. `--env` settings go to the worker; each progress line says where its workflow tasks waited.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { bookUpload } from '../../src/appointment-uploads/book-upload.js';
import type { UploadRow } from '../../src/appointment-uploads/read-upload.js';
import type { UploadRowResult } from '../../src/appointment-uploads/book-upload.js';
import { cancelAppointment, readPatient, rescheduleAppointment, type Patients } from '../../src/patients/patients.js';
import type { Appointment, PatientView } from '../../workflows/patient/patient.js';
import { builtCli, envArgs, forEachLimited, numberArg, startBenchStack, startWorkerChild } from '../bench-stack.js';
import { processCpuMs, relaunchedWorkerPid } from '../proc-stats.js';
import { describeInterval, readWorkerMetrics } from '../worker-metrics.js';
import { compressedDayStart, compressedPolicy, dateOfDay, type CompressedMonth } from './month-plan.js';
import { judgeMonth, type SandboxCreation } from './month-judge.js';

const PATIENTS = numberArg('patients', 10_000);
const APPOINTMENTS = Math.max(numberArg('appointments', 12_000), PATIENTS);
/** A minute a day: a day's 400 visits check in two bursts (3 days ahead, and the morning), each drained in seconds. */
const DAY_SECONDS = numberArg('day-seconds', 60);
const CONCURRENCY = numberArg('concurrency', 32);
/** Long enough to book every row (about 25 a second here) before the first check: the month's checks get the worker. */
const LEAD_SECONDS = numberArg('lead-seconds', Math.ceil(APPOINTMENTS / 20));
const SHARE = 0.05;
/** Visits fall on days 3..32: each has its check three days before inside the run. */
const FIRST_VISIT_DAY = 3;
const LAST_VISIT_DAY = 32;

/** A deterministic pseudo-random sequence, so two runs book the same month. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

interface Planned {
  row: number;
  patient: number;
  day: number;
  change?: { kind: 'reschedule'; at: number; toDay: number } | { kind: 'cancel'; at: number };
}

async function run() {
  if (DAY_SECONDS % 4 !== 0) throw new Error('--day-seconds must be a multiple of 4 (06:00 is a quarter of a day)');
  const dayMs = DAY_SECONDS * 1000;
  const rand = random(42);
  const stack = await startBenchStack();
  const workerEnv = { ...stack.workerEnv, ...envArgs() };
  const worker = startWorkerChild([...builtCli(), 'worker'], workerEnv);
  try {
    await worker.ready;
    const pid = relaunchedWorkerPid(worker.pid);
    const t0 = Date.now();
    // Day 0 starts `--lead-seconds` after the upload begins. The file is in date order, as a schedule export is: the
    // first days are booked first, and the upload goes on into the month ahead of the checks (a day's rows, about
    // 400, take less than a day to book).
    const month: CompressedMonth = {
      origin: t0 + LEAD_SECONDS * 1000,
      dayMs,
      firstDate: new Date(t0 + 30 * 86_400_000).toISOString().slice(0, 10),
    };
    const patients: Patients = {
      client: stack.client,
      taskQueue: stack.taskQueue,
      idKey: randomBytes(32),
      calendar: compressedDayStart(month),
      policy: compressedPolicy(dayMs),
      verificationTiming: { pollInitialSeconds: 1, pollMaxSeconds: 2, graceSeconds: 0.5 },
    };
    const dayOf = () => FIRST_VISIT_DAY + Math.floor(rand() * (LAST_VISIT_DAY - FIRST_VISIT_DAY + 1));
    const plan: Planned[] = [];
    for (let i = 0; i < APPOINTMENTS; i++) plan.push({ row: i + 1, patient: i % PATIENTS, day: dayOf() });
    // Changes go to patients with one appointment, so what a cancel stops is theirs alone.
    const single = plan.filter((p) => p.row <= PATIENTS && p.row + PATIENTS > APPOINTMENTS && p.day >= 5);
    const changeCount = Math.round(APPOINTMENTS * SHARE);
    for (let k = 0; k < 2 * changeCount && k < single.length; k++) {
      const p = single[Math.floor((k * single.length) / (2 * changeCount))]!;
      const dayStart = month.origin + p.day * dayMs;
      // Any time from day 0 to a quarter day before the visit: before its first check, or between its checks.
      const at = month.origin + rand() * (dayStart - dayMs / 4 - month.origin);
      if (k % 2 === 0) {
        const earliest = Math.ceil((at - month.origin) / dayMs) + 1;
        const shift = (rand() < 0.5 ? -1 : 1) * (1 + Math.floor(rand() * 4));
        const toDay = Math.min(LAST_VISIT_DAY, Math.max(earliest, p.day + shift === p.day ? p.day + 1 : p.day + shift));
        p.change = { kind: 'reschedule', at, toDay: toDay === p.day ? Math.min(LAST_VISIT_DAY, p.day + 1) : toDay };
      } else p.change = { kind: 'cancel', at };
    }
    const rows: UploadRow[] = [...plan]
      .sort((a, b) => a.day - b.day)
      .map((p) => ({
        row: p.row,
        line: p.row + 1,
        appointment: {
          appointmentRef: `visit-${p.row}`,
          patientRef: `month-${p.patient}`,
          patient: {
            firstName: 'Month',
            lastName: `Bench${p.patient}`,
            dateOfBirth: '01/02/1980',
            state: 'NY',
            memberId: `M${p.patient}`,
          },
          payerId: '60054',
          dateOfService: dateOfDay(month, p.day),
          timeZone: 'UTC',
          specialtyCode: 'PRC',
          placeOfServiceCode: '11',
        },
      }));
    console.log(
      `A month of ${PATIENTS} patients and ${APPOINTMENTS} appointments, a day being ${DAY_SECONDS} s ` +
        `(${((LAST_VISIT_DAY + 1) * DAY_SECONDS) / 60} min of visits and checks); ` +
        `${plan.filter((p) => p.change?.kind === 'reschedule').length} to reschedule, ` +
        `${plan.filter((p) => p.change?.kind === 'cancel').length} to cancel`,
    );
    const cpu0 = processCpuMs(pid);
    let done = 0;
    // Each row's result as it is booked: a change waits for its appointment's booking and for its time.
    const bookedRow = new Map<number, (result: UploadRowResult) => void>();
    const rowBooked = new Map(
      plan.map((p) => [p.row, new Promise<UploadRowResult>((resolve) => bookedRow.set(p.row, resolve))]),
    );
    const booking = bookUpload(patients, rows, {
      tenant: 'bench-clinic',
      concurrency: CONCURRENCY,
      now: () => month.origin,
      onRow: (result) => {
        bookedRow.get(result.row)!(result);
        if (++done % 2000 === 0) {
          console.log(`  booked ${done}: ${(done / ((Date.now() - t0) / 1000)).toFixed(0)}/s`);
        }
      },
    });

    // The month's changes, each at its time.
    const changes = plan.filter((p) => p.change !== undefined).sort((a, b) => a.change!.at - b.change!.at);
    const cancelled = new Map<string, { at: number; before: Set<string> }>();
    let lateChanges = 0;
    const changing = forEachLimited(changes.length, 16, async (i) => {
      const p = changes[i]!;
      const { appointmentId } = await rowBooked.get(p.row)!;
      const wait = p.change!.at - Date.now();
      if (wait < 0) lateChanges++;
      await sleep(Math.max(0, wait));
      if (p.change!.kind === 'reschedule') {
        await rescheduleAppointment(patients, appointmentId!, { dateOfService: dateOfDay(month, p.change!.toDay) });
      } else {
        const held: Appointment = await cancelAppointment(patients, appointmentId!);
        const before = new Set(
          held.checks.flatMap((c) => (c.verificationWorkflowId ? [c.verificationWorkflowId] : [])),
        );
        cancelled.set(appointmentId!, { at: Date.now(), before });
      }
    });
    const booked = await booking;
    const bookSeconds = (Date.now() - t0) / 1000;
    console.log(
      `  upload: ${JSON.stringify(booked.counts)} in ${bookSeconds.toFixed(0)} s ` +
        `(${(APPOINTMENTS / bookSeconds).toFixed(0)} rows/s); day 0 started at ${LEAD_SECONDS} s`,
    );
    const idOf = new Map(booked.results.map((r) => [r.row, r]));
    const end = month.origin + (LAST_VISIT_DAY + 1) * dayMs;
    let last = -1;
    let metrics = { at: Date.now(), sample: await readWorkerMetrics(workerEnv.WORKER_HTTP_PORT!) };
    while (Date.now() < end) {
      await sleep(Math.min(30_000, Math.max(0, end - Date.now())));
      const created = (await sandboxCreations(stack.sandboxUrl)).length;
      const day = Math.floor((Date.now() - month.origin) / dayMs);
      const now = { at: Date.now(), sample: await readWorkerMetrics(workerEnv.WORKER_HTTP_PORT!) };
      console.log(
        `  day ${day}: ${created} verifications created so far (${((Date.now() - t0) / 1000) | 0} s); ` +
          describeInterval(metrics.sample, now.sample, (now.at - metrics.at) / 1000),
      );
      metrics = now;
      last = created;
    }
    await changing;
    // The month is over: wait for the last verifications to settle.
    for (;;) {
      await sleep(5000);
      const created = (await sandboxCreations(stack.sandboxUrl)).length;
      if (created === last) break;
      last = created;
    }
    await sleep(5000);
    const wallSeconds = (Date.now() - t0) / 1000;
    const cpuMs = processCpuMs(pid) - cpu0;

    const views = new Map<number, PatientView>();
    const patientIds = [...new Set(booked.results.map((r) => r.patientId!))];
    const byPatientId = new Map(plan.map((p) => [idOf.get(p.row)!.patientId!, p.patient]));
    await forEachLimited(patientIds.length, 32, async (i) => {
      views.set(byPatientId.get(patientIds[i]!)!, await readPatient(patients, patientIds[i]!));
    });
    const creations = await sandboxCreations(stack.sandboxUrl);
    const figures = judgeMonth({ views: [...views.values()], creations, cancelled, dayMs, now: Date.now() });
    console.log(`\nThe month took ${wallSeconds.toFixed(0)} s in all, worker CPU ${(cpuMs / 1000).toFixed(0)} s`);
    console.log(
      `  sandbox verifications created       ${creations.length} (${figures.unattributed} attributed to no patient)`,
    );
    console.log(
      `  appointments verified inside window ${figures.insideWindow} of ${figures.appointments} = ` +
        `${((100 * figures.insideWindow) / figures.appointments).toFixed(2)}% (target 100%)`,
    );
    console.log(`  verified twice in one window        ${figures.twiceInWindow} (target 0)`);
    console.log(
      `  changes made later than planned     ${lateChanges} of ${changes.length} (their booking or the bench lagged)`,
    );
    console.log(
      `  cancelled appointments verified     ${figures.cancelledVerified} of ${figures.cancelled} (target 0)`,
    );
    console.log(
      `  checks: ${figures.checks.verified} verified, ${figures.checks.reused} reused, ${figures.checks.skipped} skipped, ` +
        `${figures.checks.waiting} still waiting; creation after its check's time p50 ${figures.lateP50Ms} ms, ` +
        `p99 ${figures.lateP99Ms} ms, max ${figures.lateMaxMs} ms`,
    );
    console.log(`  outside their window, by their last check: ${JSON.stringify(figures.outside)}`);
    for (const miss of figures.misses) console.log(`  outside its window (days from the visit's day): ${miss}`);
  } finally {
    await worker.stop();
    await stack.stop();
  }
}

async function sandboxCreations(url: string): Promise<SandboxCreation[]> {
  const response = await fetch(`${url}/sandbox/verifications`);
  return ((await response.json()) as { verificationId: string; created: string }[]).map((r) => ({
    verificationId: r.verificationId,
    at: Date.parse(r.created),
  }));
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
