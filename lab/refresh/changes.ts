/**
 * `npm run bench:changes [-- --patients 500] [--changed 100] [--max-minutes 20]`: change detection across two monthly
 * refreshes. `patients` active patients (a visit 30 days ahead) are refreshed twice through their tenant's Schedule;
 * between the refreshes the sandbox changes the coverage of `changed` of them (POST /sandbox/coverage), a fifth each:
 * coverage lost, found (lost before the first refresh, restored before the second), payer moved, new member id, and
 * verifications failing. Refreshes discover coverage (ELIGIBILITY_DISCOVERY_CREATE_PATH=/sandbox/discoveries,
 * decision 0051). Detected changes are the `coverage.changed` events a real endpoint received, each verified with
 * `standardwebhooks` (the outbound events pipeline of lab/events: PostgreSQL, the events worker, the dispatcher):
 * precision and recall against the scripted ones (target 1.0 and 1.0), and every change delivered as an event.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { readPatient, scheduleAppointment, type Patients } from '../../src/patients/patients.js';
import { putRefreshSchedule } from '../../src/schedules/refresh-schedules.js';
import { refreshScheduleId } from '../../workflows/shared/ids.js';
import type { CoverageChangeKind } from '../../workflows/patient/patient.js';
import { refreshTotals, type RefreshProgress } from '../../workflows/refresh/refresh.js';
import { forEachLimited, numberArg } from '../bench-stack.js';
import { startFaultStack } from '../faults/stack.js';
import { subscribe } from '../events/receiving.js';
import { day, waitIndexed } from './stack.js';

const PATIENTS = numberArg('patients', 500);
const CHANGED = numberArg('changed', 100);
const DEADLINE = Date.now() + numberArg('max-minutes', 20) * 60_000;
const log = (line: string) => console.log(line);

/** Each scripted kind: what the sandbox is told before the first refresh and between the two. */
const SCRIPTS: { kind: CoverageChangeKind; before?: string; between: string; payerId?: string }[] = [
  { kind: 'coverage-lost', between: 'lose' },
  { kind: 'coverage-found', before: 'lose', between: 'restore' },
  { kind: 'payer-changed', between: 'move-payer', payerId: '62308' },
  { kind: 'member-id-changed', between: 'new-member-id' },
  { kind: 'verification-failing', between: 'fail' },
];

const person = (i: number) => ({ firstName: 'Change', lastName: `Bench${i}`, dateOfBirth: '03/04/1975' });

async function main() {
  // The worker (a child of this process) discovers coverage at the sandbox's discoveries.
  process.env.ELIGIBILITY_DISCOVERY_CREATE_PATH = '/sandbox/discoveries';
  const stack = await startFaultStack(log, { maxRps: 500, events: {} });
  const { client } = stack;
  const sandboxUrl = stack.sandbox.url;
  try {
    const tenant = `clinic-${randomBytes(3).toString('hex')}`;
    const sink = await subscribe(stack, tenant);
    const patients: Patients = {
      client,
      taskQueue: stack.config.temporal.taskQueue,
      idKey: randomBytes(32),
      policy: { offsets: [{ offsetSeconds: -3 * 86_400, reuseWithinSeconds: 3600 }] },
      verificationTiming: { graceSeconds: 0.2, pollInitialSeconds: 1, pollMaxSeconds: 2 },
    };
    const ids: string[] = Array.from({ length: PATIENTS }, () => '');
    await forEachLimited(PATIENTS, 40, async (i) => {
      const booked = await scheduleAppointment(patients, {
        tenant,
        patientRef: `chg-${i}`,
        patient: { ...person(i), state: 'NY' },
        payerId: '60054',
        dateOfService: day(30),
        specialtyCode: 'PRC',
        placeOfServiceCode: '11',
      });
      ids[i] = booked.patientId;
    });
    await waitIndexed(client, tenant, PATIENTS);
    log(`booked ${PATIENTS} patients of ${tenant}`);

    // Patient i < CHANGED gets SCRIPTS[i % 5]: every kind, CHANGED / 5 times.
    const scripted = new Map<string, CoverageChangeKind>();
    const control = async (i: number, change: string, payerId?: string) => {
      const res = await fetch(`${sandboxUrl}/sandbox/coverage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ patient: person(i), change, ...(payerId ? { payerId } : {}) }),
      });
      if (!res.ok) throw new Error(`POST /sandbox/coverage: ${res.status}`);
    };
    for (let i = 0; i < CHANGED; i++) {
      const script = SCRIPTS[i % SCRIPTS.length]!;
      scripted.set(ids[i]!, script.kind);
      if (script.before) await control(i, script.before);
    }

    const policy = { pageSize: 200, maxInFlight: 400, settleSeconds: 1 };
    const first = await refreshOnce(client, stack.config.temporal.taskQueue, tenant, policy);
    log(`refresh 1: ${describe(first.progress)} in ${first.seconds.toFixed(1)} s`);
    for (let i = 0; i < CHANGED; i++) {
      const script = SCRIPTS[i % SCRIPTS.length]!;
      await control(i, script.between, script.payerId);
    }
    const second = await refreshOnce(client, stack.config.temporal.taskQueue, tenant, policy, first.refreshId);
    log(`refresh 2: ${describe(second.progress)} in ${second.seconds.toFixed(1)} s`);

    // Deliveries: every change the patients recorded is due as one event; wait for them (or the deadline).
    const recorded = new Map<string, CoverageChangeKind[][]>();
    await forEachLimited(ids.length, 20, async (i) => {
      const view = await readPatient(patients, ids[i]!);
      if (view.changes.length > 0)
        recorded.set(
          ids[i]!,
          view.changes.map((c) => c.kinds),
        );
    });
    const recordedCount = [...recorded.values()].reduce((n, c) => n + c.length, 0);
    const changeEvents = () => {
      const seen = new Map<string, { patientId: string; kinds: CoverageChangeKind[] }>();
      for (const r of sink.receiver.received) {
        if (r.event.type !== 'coverage.changed') continue;
        seen.set(r.event.id, r.event.data as { patientId: string; kinds: CoverageChangeKind[] });
      }
      return [...seen.values()];
    };
    while (changeEvents().length < recordedCount && Date.now() < DEADLINE) await sleep(1000);
    const events = changeEvents();

    // Precision and recall over (patient, kind) pairs: detected from the events delivered.
    const expected = new Set([...scripted].map(([id, kind]) => `${id}|${kind}`));
    const detected = new Set(events.flatMap((e) => e.kinds.map((k) => `${e.patientId}|${k}`)));
    const truePositives = [...detected].filter((d) => expected.has(d)).length;
    const precision = detected.size === 0 ? 0 : truePositives / detected.size;
    const recall = truePositives / expected.size;
    const perKind = SCRIPTS.map(({ kind }) => {
      const want = [...scripted.values()].filter((k) => k === kind).length;
      const got = [...detected].filter((d) => d.endsWith(`|${kind}`) && expected.has(d)).length;
      return `${kind} ${got}/${want}`;
    });

    log('');
    log(`change detection: ${PATIENTS} patients, ${CHANGED} changed by the sandbox between two refreshes`);
    log(`  scripted changes           ${expected.size}  (${perKind.join(', ')})`);
    log(`  detected (events)          ${detected.size}`);
    log(`  precision                  ${precision.toFixed(3)}  (target 1.0)`);
    log(`  recall                     ${recall.toFixed(3)}  (target 1.0)`);
    log(`  changes the patients hold  ${recordedCount}`);
    log(
      `  coverage.changed delivered ${events.length} of ${recordedCount}; signatures verified ${sink.verified}, refused ${sink.refused}`,
    );
    const ok = precision === 1 && recall === 1 && events.length === recordedCount && sink.refused === 0;
    log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
    await sink.receiver.stop();
  } finally {
    await stack.close();
  }
}

const describe = (p: RefreshProgress) => {
  const t = refreshTotals(p.verifications!);
  return `patients ${p.patients}, verified ${t.verified}, failed ${t.failed}`;
};

/** Triggers the tenant's schedule once and waits for that refresh to finish. */
async function refreshOnce(
  client: Client,
  taskQueue: string,
  tenant: string,
  policy: { pageSize: number; maxInFlight: number; settleSeconds: number },
  previous?: string,
): Promise<{ refreshId: string; progress: RefreshProgress; seconds: number }> {
  const started = Date.now();
  await putRefreshSchedule(client, taskQueue, { tenant, everySeconds: 86_400, jitterSeconds: 0, paused: true, policy });
  const schedule = client.schedule.getHandle(refreshScheduleId(tenant));
  await schedule.trigger();
  let refreshId: string | undefined;
  while (!refreshId || refreshId === previous) {
    if (Date.now() > DEADLINE) throw new Error('no refresh started');
    refreshId = (await schedule.describe()).info.recentActions.at(-1)?.action.workflow.workflowId;
    await sleep(250);
  }
  const progress = (await client.workflow.getHandle(refreshId).result()) as RefreshProgress;
  return { refreshId, progress, seconds: (Date.now() - started) / 1000 };
}

await main();
