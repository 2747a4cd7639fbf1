/**
 * `npm run bench:idle-patients [-- --count 10000] [--probes 20] [--env NAME=value …]`: the resident memory of a worker
 * (`eligibility worker` at its default settings, as lab/worker-memory.ts starts it) holding N idle patients, each
 * waiting on a durable timer for an appointment weeks ahead, and what waking an evicted patient by its timer costs
 * (the workflow task that replays it: its duration in the history, the worker's CPU, the history's length) beside a
 * patient still cached. The launcher process is reported beside the worker.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { variables } from '../../src/config.js';
import { readPatient, scheduleAppointment, type Patients } from '../../src/patients/patients.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { builtCli, envArgs, forEachLimited, numberArg, startBenchStack, startWorkerChild } from '../bench-stack.js';
import { mb, processCpuMs, processMemory, relaunchedWorkerPid, sharedAwareMb } from '../proc-stats.js';
import { wakeTask } from './wake-task.js';

const COUNT = numberArg('count', 10_000);
const PROBES = numberArg('probes', 20);
const WORKER_ENV = envArgs();
const TARGET_MB = 300;
const DAY_MS = 86_400_000;
const STAGGER_MS = 500;

const visit = (i: number, dateOfService: string) => ({
  tenant: 'bench-clinic',
  patientRef: `idle-${i}`,
  appointmentRef: `visit-${i}`,
  patient: { firstName: 'Bench', lastName: 'Idle', dateOfBirth: '01/02/1980', state: 'NY' as const, memberId: `M${i}` },
  payerId: '60054',
  dateOfService,
  specialtyCode: 'PRC' as const,
  placeOfServiceCode: '11',
});

async function run() {
  const cache = Number(WORKER_ENV.WORKER_MAX_CACHED_WORKFLOWS ?? variables.WORKER_MAX_CACHED_WORKFLOWS.default);
  console.log(`Idle patients: ${COUNT} patients waiting on a timer; worker cache ${cache} workflows`);
  const settings = Object.entries(WORKER_ENV).map(([k, v]) => `${k}=${v}`);
  console.log(`  worker settings: ${settings.length > 0 ? settings.join(' ') : 'defaults'}`);
  const stack = await startBenchStack();
  const worker = startWorkerChild([...builtCli(), 'worker'], { ...stack.workerEnv, ...WORKER_ENV });
  try {
    await worker.ready;
    await sleep(3000);
    const pid = relaunchedWorkerPid(worker.pid);
    const idle = processMemory(pid);
    console.log(`  worker before any patient: RSS ${mb(idle.rssMb)}`);
    const idKey = randomBytes(32);
    const patients: Patients = { client: stack.client, taskQueue: stack.taskQueue, idKey };
    // Visits six weeks ahead: the first check (3 days before) is weeks away, so every patient holds a timer.
    const far = new Date(Date.now() + 42 * DAY_MS).toISOString().slice(0, 10);
    let booked = 0;
    const t0 = performance.now();
    const book = async (from: number, to: number) =>
      forEachLimited(to - from, 32, async (i) => {
        await scheduleAppointment(patients, visit(from + i, far));
        if (++booked % 1000 === 0) {
          const rate = booked / ((performance.now() - t0) / 1000);
          console.log(`  booked ${booked}: ${rate.toFixed(0)}/s, worker RSS ${mb(processMemory(pid).rssMb)}`);
        }
      });
    // The probes wake at a time set once the rest of the run is timed (`calendar` puts their visit's day there), one
    // every STAGGER_MS, so no wake waits for another's workflow task slot.
    const probe = (wakeAt: number): Patients => ({
      ...patients,
      calendar: () => wakeAt,
      policy: { offsets: [{ offsetSeconds: 0, reuseWithinSeconds: 0 }] },
    });
    const bookProbes = async (firstAt: number, name: string) => {
      const ids: string[] = [];
      const today = new Date().toISOString().slice(0, 10);
      await forEachLimited(PROBES, 8, async (i) => {
        const request = { ...visit(i, today), patientRef: `probe-${name}-${i}` };
        const { patientId } = await scheduleAppointment(probe(firstAt + i * STAGGER_MS), request);
        ids.push(patientWorkflowId(patientId));
      });
      return ids;
    };
    const windowMs = PROBES * STAGGER_MS + 10_000;
    const tail = Math.max(cache * 2, 1000);
    await book(0, Math.max(0, COUNT - tail - 2 * PROBES));
    const rate = booked / ((performance.now() - t0) / 1000);
    // Booked now, pushed out of the cache by the `tail` patients booked after them.
    const evictedAt = Date.now() + ((tail + PROBES) / rate) * 2000 + 15_000;
    const evictedIds = await bookProbes(evictedAt, 'evicted');
    await book(COUNT - tail - PROBES, COUNT - PROBES);
    // Booked last: still cached when they wake, after the evicted ones.
    const cachedAt = evictedAt + windowMs + 5000;
    const cachedIds = await bookProbes(cachedAt, 'cached');
    const total = booked + 2 * PROBES;
    console.log(`  ${total} patients booked in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    await sleep(Math.max(0, evictedAt - Date.now() - 5000));
    const held = processMemory(pid);
    const launcher = processMemory(worker.pid);
    const together = sharedAwareMb([worker.pid, pid]);

    const cpu = async (at: number) => {
      await sleep(Math.max(0, at - Date.now() - 2000));
      const before = processCpuMs(pid);
      await sleep(windowMs);
      return (processCpuMs(pid) - before) / PROBES;
    };
    const evictedCpu = await cpu(evictedAt);
    const cachedCpu = await cpu(cachedAt);
    const evictedTasks = await Promise.all(evictedIds.map((id) => wakeTask(stack.client, id)));
    const cachedTasks = await Promise.all(cachedIds.map((id) => wakeTask(stack.client, id)));
    const state = await readPatient(patients, evictedIds[0]!.slice('patient-'.length));

    console.log(`\nWorker holding ${total} idle patients (cache ${cache}):`);
    console.log(
      `  worker RSS      ${mb(held.rssMb)}  (target <= ${TARGET_MB} MB: ${held.rssMb <= TARGET_MB ? 'met' : 'NOT met'})`,
    );
    console.log(`  peak (VmHWM)    ${mb(held.peakMb)}`);
    console.log(
      `  launcher RSS    ${mb(launcher.rssMb)}; both ${mb(held.rssMb + launcher.rssMb)} RSS, ${mb(together)} PSS`,
    );
    console.log(
      `  per patient     ${(((held.rssMb - idle.rssMb) * 1024) / total).toFixed(1)} kB ((RSS - before) / ${total})`,
    );
    console.log(`Waking by its timer (${PROBES} patients each; the task that runs the check, from their histories):`);
    const line = (name: string, tasks: Awaited<ReturnType<typeof wakeTask>>[], cpuMs: number) => {
      const ms = tasks.map((t) => t.taskMs).sort((a, b) => a - b);
      const lengths = tasks.map((t) => t.eventsBefore);
      console.log(
        `  ${name}  task median ${ms[Math.floor(ms.length / 2)]} ms, max ${ms.at(-1)} ms; ` +
          `worker CPU ${cpuMs.toFixed(1)} ms each (the verification it starts included); ` +
          `history ${Math.min(...lengths)}–${Math.max(...lengths)} events before the wake`,
      );
    };
    line('evicted', evictedTasks, evictedCpu);
    line('cached ', cachedTasks, cachedCpu);
    console.log(`  a probe's state after its check: ${JSON.stringify(state).length} bytes as JSON`);
  } finally {
    await worker.stop();
    await stack.stop();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
