/**
 * `npm run bench:worker-memory [-- --count 10000] [--max-minutes 25] [--env NAME=value …]`: the resident memory of
 * a worker (`eligibility worker` at default settings, started as a user starts it; `--env` adds settings, e.g.
 * `--env WORKER_MAX_CACHED_WORKFLOWS=500 --env WORKER_HEAP_MB=512`) while N verifications end up awaiting input, then
 * what an update costs when its workflow was evicted from the worker's cache (replayed from its history) beside one
 * still cached. The worker runs in a child process, so its memory is its own; `eligibility worker` restarts itself
 * with its memory limits (workers/relaunch.ts), so the figures are those of that restarted process, the one holding
 * the workflows, and the launcher that waits for it is reported beside it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { variables } from '../src/config.js';
import { SandboxRunList } from '../src/contract/index.js';
import { startVerification } from '../src/temporal/start-verification.js';
import { verificationWorkflowId } from '../workflows/shared/ids.js';
import { runAwaitingInputSignal, supplyRunInputUpdate } from '../workflows/verification/verification.js';
import {
  builtCli,
  envArgs,
  forEachLimited,
  numberArg,
  startBenchStack,
  startWorkerChild,
  type BenchStack,
} from './bench-stack.js';
import {
  mb,
  processCpuMs,
  processMemory,
  relaunchedWorkerPid,
  sharedAwareMb,
  type ProcessMemory,
} from './proc-stats.js';

const COUNT = numberArg('count', 10_000);
const WORKER_ENV = envArgs();
const DEADLINE = Date.now() + numberArg('max-minutes', 25) * 60_000;
/** Updates timed per case (evicted, cached): CPU ticks are 10 ms, so one update alone is below the resolution. */
const SAMPLES = 20;

const request = (i: number) => ({
  id: `memory-${i}`,
  patient: { firstName: 'Bench', lastName: 'Mark', dateOfBirth: '01/02/1980', state: 'NY', memberId: `M${i}` },
  payerId: '60054',
  placeOfServiceCode: '11',
  // The sandbox's magic specialty: the verification opens a run that awaits callback input.
  specialtyCode: 'ABA',
});

/** Signals each new pending run to its verification, as the webhook receiver would; returns the workflow ids. */
async function signalNewRuns(stack: BenchStack, signalled: Map<string, string>): Promise<void> {
  const response = await fetch(`${stack.sandboxUrl}/sandbox/runs`);
  const runs = SandboxRunList.parse(await response.json()).filter((r) => r.id && !signalled.has(r.id));
  await forEachLimited(runs.length, 50, async (i) => {
    const run = runs[i]!;
    const workflowId = verificationWorkflowId(run.id!);
    await stack.client.workflow.getHandle(workflowId).signal(runAwaitingInputSignal, { flowRunId: run.flowRunId });
    signalled.set(run.id!, run.flowRunId);
  });
}

/** Wall time and worker CPU of `SAMPLES` sequential update round trips; each answers its run and ends its workflow. */
async function timeUpdates(stack: BenchStack, pid: number, targets: [string, string][]) {
  const cpuBefore = processCpuMs(pid);
  const walls: number[] = [];
  for (const [callerId, flowRunId] of targets) {
    const handle: WorkflowHandle = stack.client.workflow.getHandle(verificationWorkflowId(callerId));
    const t0 = performance.now();
    await handle.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: { authorizationNumber: 'B-1' } }] });
    walls.push(performance.now() - t0);
  }
  walls.sort((a, b) => a - b);
  return { medianMs: walls[Math.floor(walls.length / 2)]!, cpuMs: (processCpuMs(pid) - cpuBefore) / targets.length };
}

async function run() {
  const cache = Number(WORKER_ENV.WORKER_MAX_CACHED_WORKFLOWS ?? variables.WORKER_MAX_CACHED_WORKFLOWS.default);
  const settings = Object.entries(WORKER_ENV).map(([k, v]) => `${k}=${v}`);
  console.log(`Worker memory: ${COUNT} verifications awaiting input; worker cache ${cache} workflows`);
  console.log(`  worker settings: ${settings.length > 0 ? settings.join(' ') : 'defaults'}`);
  const stack = await startBenchStack();
  const worker = startWorkerChild([...builtCli(), 'worker'], { ...stack.workerEnv, ...WORKER_ENV });
  try {
    await worker.ready;
    await sleep(3000);
    const pid = relaunchedWorkerPid(worker.pid);
    const idle = processMemory(pid);
    console.log(`  idle: RSS ${mb(idle.rssMb)}`);
    // Both processes, shared pages once: what a container's memory limit would count, sampled at its highest.
    let peakTogetherMb = 0;

    const signalled = new Map<string, string>();
    let started = 0;
    let stopped = false;
    const starting = forEachLimited(COUNT, 50, async (i) => {
      if (Date.now() > DEADLINE) return;
      await startVerification(stack.client, request(i), { taskQueue: stack.taskQueue });
      started++;
    });
    const awaiting = `TaskQueue = '${stack.taskQueue}' AND VerificationStage = 'awaiting-input'`;
    let inputWaiting = 0;
    let lastReport = 0;
    let done = false;
    void starting.then(() => (done = true));
    for (;;) {
      await signalNewRuns(stack, signalled);
      inputWaiting = (await stack.client.workflow.count(awaiting)).count;
      const memory = processMemory(pid);
      peakTogetherMb = Math.max(peakTogetherMb, sharedAwareMb([worker.pid, pid]));
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        console.log(
          `  started ${started}, runs signalled ${signalled.size}, awaiting input ${inputWaiting}: ` +
            `worker RSS ${mb(memory.rssMb)} (peak ${mb(memory.peakMb)})`,
        );
      }
      if (done && inputWaiting >= started) break;
      if (Date.now() > DEADLINE) {
        stopped = true;
        break;
      }
      await sleep(1000);
    }
    await starting;
    if (stopped) console.log(`  STOPPED at the time limit: ${inputWaiting} of ${COUNT} awaiting input`);
    await sleep(5000);
    const end: ProcessMemory = processMemory(pid);
    const launcher = processMemory(worker.pid);
    const endTogetherMb = sharedAwareMb([worker.pid, pid]);

    // The first runs signalled were evicted long ago (the cache holds the last `cache` workflows active); the last
    // ones are still cached. Cached first: answering an evicted one brings it back and pushes another out.
    const order = [...signalled.entries()];
    const cached = await timeUpdates(stack, pid, order.slice(-Math.min(SAMPLES, Math.floor(cache / 2))));
    const evicted = await timeUpdates(stack, pid, order.slice(0, SAMPLES));

    const perAwaitingKb = ((end.rssMb - idle.rssMb) * 1024) / inputWaiting;
    const perCachedKb = ((end.rssMb - idle.rssMb) * 1024) / Math.min(inputWaiting, cache);
    console.log(`\nWorker RSS with ${inputWaiting} verifications awaiting input (cache ${cache}):`);
    console.log(`  idle            ${mb(idle.rssMb)}`);
    console.log(`  peak (VmHWM)    ${mb(end.peakMb)}`);
    console.log(`  at the end      ${mb(end.rssMb)}`);
    console.log(`  per awaiting    ${perAwaitingKb.toFixed(1)} kB  ((end - idle) / ${inputWaiting})`);
    console.log(`  per cached      ${perCachedKb.toFixed(0)} kB  ((end - idle) / ${Math.min(inputWaiting, cache)})`);
    if (inputWaiting <= cache) console.log('  (fewer workflows than the cache holds: none was evicted)');
    console.log(`  launcher        ${mb(launcher.rssMb)}  (the \`eligibility worker\` process waiting for the worker)`);
    console.log(
      `  both, PSS       ${mb(endTogetherMb)} at the end, ${mb(peakTogetherMb)} at most sampled ` +
        '(shared pages counted once, as a container limit counts them)',
    );
    console.log(`supplyRunInput update round trip, median of ${SAMPLES} (worker CPU per update, mean):`);
    console.log(`  cached workflow   ${cached.medianMs.toFixed(1)} ms  (${cached.cpuMs.toFixed(1)} ms CPU)`);
    console.log(`  evicted workflow  ${evicted.medianMs.toFixed(1)} ms  (${evicted.cpuMs.toFixed(1)} ms CPU)`);
    console.log(
      `  replay cost       ${(evicted.medianMs - cached.medianMs).toFixed(1)} ms, ` +
        `${(evicted.cpuMs - cached.cpuMs).toFixed(1)} ms CPU (ratio ${(evicted.medianMs / cached.medianMs).toFixed(2)})`,
    );
  } finally {
    await worker.stop();
    await stack.stop();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
