/**
 * `npm run bench:worker-cpu [-- --count 300] [--concurrency 20] [--max-minutes 10]`: the worker's CPU time per
 * verification on the happy path (payer known, encrypted payloads), beside the same kind of worker running a workflow
 * that calls one no-op activity, on the same Temporal server. CPU is user + system time of the worker process (all its
 * threads: the SDK's core, the workflow thread, activities) and of the launcher it was restarted from with its memory
 * limits (workers/relaunch.ts), from /proc, measured over the runs alone.
 */
import { fileURLToPath } from 'node:url';
import { startVerification } from '../src/temporal/start-verification.js';
import { forEachLimited, numberArg, startBenchStack, startWorkerChild, type BenchStack } from './bench-stack.js';
import { processCpuMs, relaunchedWorkerPid } from './proc-stats.js';

const CHILD = fileURLToPath(new URL('./worker-child.ts', import.meta.url));
const COUNT = numberArg('count', 300);
// Below the worker's cache size: a verification in flight stays cached, so this is the CPU of the work, not of replays.
const CONCURRENCY = numberArg('concurrency', 20);
const WARM_UP = 20;
const DEADLINE = Date.now() + numberArg('max-minutes', 10) * 60_000;

type Kind = 'verification' | 'one-activity';

const request = (kind: Kind, i: number) => ({
  id: `cpu-${kind}-${i}`,
  patient: { firstName: 'Bench', lastName: 'Mark', dateOfBirth: '01/02/1980', state: 'NY', memberId: `M${i}` },
  payerId: '60054',
  placeOfServiceCode: '11',
  specialtyCode: 'PRC',
});

async function runOne(stack: BenchStack, kind: Kind, i: number): Promise<void> {
  if (kind === 'verification') {
    // A grace period of ~0: it completes right after creation (the grace timer still fires, as in production).
    const { workflowId } = await startVerification(stack.client, request(kind, i), {
      taskQueue: stack.taskQueue,
      timing: { graceSeconds: 0.001 },
    });
    const result = (await stack.client.workflow.getHandle(workflowId).result()) as { outcome: string };
    if (result.outcome !== 'completed') throw new Error(`${workflowId} ended ${result.outcome}`);
    return;
  }
  await stack.client.workflow.execute('oneActivityWorkflow', {
    taskQueue: stack.taskQueue,
    workflowId: `one-activity-${i}`,
    args: [request(kind, i)],
  });
}

/** Worker CPU ms per workflow of `kind`, over `COUNT` runs after a warm-up (JIT, token, connections). */
async function measure(kind: Kind): Promise<{ cpuMs: number; wallS: number; done: number }> {
  const stack = await startBenchStack();
  const worker = startWorkerChild(['--import', import.meta.resolve('tsx'), CHILD, kind], stack.workerEnv);
  try {
    await worker.ready;
    await forEachLimited(WARM_UP, CONCURRENCY, (i) => runOne(stack, kind, -1 - i));
    const pids = [worker.pid, relaunchedWorkerPid(worker.pid)];
    const cpu0 = processCpuMs(...pids);
    const t0 = performance.now();
    let done = 0;
    await forEachLimited(COUNT, CONCURRENCY, async (i) => {
      if (Date.now() > DEADLINE) return;
      await runOne(stack, kind, i);
      if (++done % 100 === 0) console.log(`  ${kind}: ${done} of ${COUNT}`);
    });
    const cpuMs = (processCpuMs(...pids) - cpu0) / done;
    return { cpuMs, wallS: (performance.now() - t0) / 1000, done };
  } finally {
    await worker.stop();
    await stack.stop();
  }
}

async function run() {
  console.log(`Worker CPU: ${COUNT} workflows of each kind, ${CONCURRENCY} at a time, encrypted payloads`);
  const verification = await measure('verification');
  const oneActivity = await measure('one-activity');
  if (verification.done < COUNT || oneActivity.done < COUNT) console.log('  STOPPED at the time limit');
  const line = (name: string, r: typeof verification) =>
    `  ${name.padEnd(28)} ${r.cpuMs.toFixed(1).padStart(6)} ms CPU each  (${r.done} in ${r.wallS.toFixed(1)} s)`;
  console.log('\nWorker CPU per workflow (user + system, all threads of the worker process and its launcher):');
  console.log(line('verification, happy path', verification));
  console.log(line('one-activity workflow', oneActivity));
  console.log(`  ratio                        ${(verification.cpuMs / oneActivity.cpuMs).toFixed(2)}`);
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
