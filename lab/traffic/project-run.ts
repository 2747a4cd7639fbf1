import os from 'node:os';
import type { Client } from '@temporalio/client';
import { START_LANES } from '../../activities/batch/start-items.js';
import { queueStartPace } from '../../activities/batch/start-pace.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { describeGovernor } from '../../src/temporal/governor.js';
import { DEFAULT_BATCH_TIMING } from '../../workflows/batch/batch.js';
import type { GovernorStatus } from '../../workflows/governor/governor.js';
import { forEachLimited } from '../bench-stack.js';
import { processTree, watchCpu } from '../proc-stats.js';
import { governorActions, verificationOverhead } from './governor-cost.js';
import { followService, type ServiceSample, type ServiceTrace } from './measure.js';
import type { TrafficStack } from './stack.js';

/**
 * Starts in flight at once, and (`startPace`) how fast they go: as a batch starts its rows (its pages in flight, each
 * starting its items in lanes, at its worker's start pace), so a run is started the way the project starts a
 * 1,000-row batch. Started as fast as Temporal took them, the starts were what was timed: the dev server's dispatch
 * of the calls already started ran at 4-13 a second of R = 40 until the last start returned (`--trace-calls`).
 */
export const START_CONCURRENCY = START_LANES * DEFAULT_BATCH_TIMING.pagesInFlight;

export const trafficRequest = (prefix: string, i: number) => ({
  id: `${prefix}-${i}`,
  patient: { firstName: 'Traffic', lastName: 'Bench', dateOfBirth: '01/02/1980', state: 'NY', memberId: `M${i}` },
  payerId: '60054',
  placeOfServiceCode: '11',
  specialtyCode: 'PRC',
});

export interface ProjectRun {
  trace: ServiceTrace;
  /** Worker CPU (all its processes and threads, user + system) per verification. */
  cpuMsPerVerification: number;
  /** The Temporal dev server's CPU per verification: the engine shares the machine with the worker. */
  serverCpuMsPerVerification: number;
  /** This bench process's CPU per verification: the sandbox (the service) and the client that starts the work. */
  benchCpuMsPerVerification: number;
  /** The machine's cores busy on average over the run (every process: engine, worker, sandbox, this client). */
  busyCores: number;
  cores: number;
  governor: GovernorStatus | undefined;
  /** The governor's billed actions, and those of the work it governed (verifications and their call attempts). */
  governorActions: number;
  workActions: number;
}

/**
 * `count` verifications through a real `eligibility worker` on a fresh task queue (so a fresh governor), with the
 * sandbox's limit at `rps` (set by the caller) and `ELIGIBILITY_MAX_RPS` = `maxRps` or unset; timed from the first
 * start until the sandbox has created the last verification.
 */
export async function runProject(
  stack: TrafficStack,
  options: {
    maxRps: number | undefined;
    count: number;
    maxMs: number;
    onTick?: (created: number) => Promise<boolean>;
    /** Settings of this run's worker, over the bench's and `--env`'s. */
    env?: Record<string, string>;
  },
): Promise<ProjectRun> {
  const client: Client = stack.bench.client;
  const { worker, taskQueue } = await stack.startWorker(options.maxRps, options.env);
  const cpu = watchCpu({
    worker: () => processTree(worker.pid!),
    server: () => processTree(stack.bench.server.pid),
    bench: () => [process.pid],
  });
  const t0 = performance.now();
  const tracing = process.argv.includes('--trace-governor') ? traceGovernor(client, taskQueue, t0) : undefined;
  const calls = process.argv.includes('--trace-calls') ? traceCalls(t0) : undefined;
  const pace = queueStartPace(client, taskQueue, options.maxRps ?? stack.service.initialRps);
  const starts = forEachLimited(options.count, START_CONCURRENCY, async (i) => {
    await pace.take();
    // Bulk, as a run of 1,000 is: its lane orders the calls like a batch's (workflows/priority.ts).
    await startVerification(client, trafficRequest(taskQueue, i), {
      taskQueue,
      lane: 'bulk',
      timing: { graceSeconds: 0.001 },
    });
  });
  const [, trace] = await Promise.all([
    starts.then(() => calls?.started(options.count)),
    followService(stack.sandbox, t0, options.count, options.maxMs, { onTick: options.onTick, onSample: calls?.sample }),
  ]);
  const { ms, busyCores } = cpu();
  const perVerification = (cpuMs: number) => cpuMs / Math.max(trace.created, 1);
  await tracing?.stop();
  const { status } = await describeGovernor(client, taskQueue);
  // Visibility lags a moment behind the last continue-as-new.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const { actions } = await governorActions(client, taskQueue);
  const overhead = await verificationOverhead(client, `verification-${taskQueue}-0`);
  await worker.stop();
  return {
    trace,
    cpuMsPerVerification: perVerification(ms.worker),
    serverCpuMsPerVerification: perVerification(ms.server),
    benchCpuMsPerVerification: perVerification(ms.bench),
    busyCores,
    cores: os.cpus().length,
    governor: status,
    governorActions: actions,
    workActions: trace.created * overhead + trace.calls,
  };
}

/**
 * `--trace-governor`: the governor's rate each time it moves, by a query a second (not billed, not in its history),
 * to see how a run's rate was found.
 */
function traceGovernor(client: Client, taskQueue: string, t0: number): { stop: () => Promise<void> } {
  let last = '';
  let running = true;
  const loop = (async () => {
    while (running) {
      const { status, queueRps } = await describeGovernor(client, taskQueue).catch(() => ({
        status: undefined,
        queueRps: undefined,
      }));
      // The queue's config is what the server enforces; the governor's rate reaches it after a local activity.
      const line = status
        ? `rps ${status.rps} (queue ${queueRps ?? '-'}) limited at ${status.limitedAtRps ?? '-'} demand ${status.demandRps}: ${status.lastChange?.reason ?? ''}`
        : 'no governor yet';
      if (line !== last) console.log(`  +${((performance.now() - t0) / 1000).toFixed(1)} s governor ${line}`);
      last = line;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/**
 * `--trace-calls`: each second of the run, the service's calls and creations in that second and its 429s so far, and
 * when the last start returned: where a run's time went (a slow start, the limit, a sag, the tail).
 */
function traceCalls(t0: number): { sample: (s: ServiceSample) => void; started: (count: number) => void } {
  let last: ServiceSample = { atMs: 0, calls: 0, created: 0, tooMany: 0 };
  const at = (ms: number) => `+${(ms / 1000).toFixed(1)} s`;
  return {
    sample(s) {
      if (s.atMs - last.atMs < 1000) return;
      const perSecond = (n: number) => ((n * 1000) / (s.atMs - last.atMs)).toFixed(1);
      console.log(
        `  ${at(s.atMs)} ${perSecond(s.calls - last.calls)} calls/s, ${perSecond(s.created - last.created)} ` +
          `created/s, ${s.tooMany} 429s so far`,
      );
      last = s;
    },
    started: (count) => console.log(`  ${at(performance.now() - t0)} all ${count} started`),
  };
}
