import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { StartPace } from '../../activities/batch/start-pace.js';
import { forEachLimited, startWorkerChild } from '../bench-stack.js';
import { processTree, watchCpu } from '../proc-stats.js';
import { START_CONCURRENCY, trafficRequest } from './project-run.js';
import type { Figure, TrafficScenario } from './scenario.js';
import type { TrafficStack } from './stack.js';

const CHILD = fileURLToPath(new URL('../worker-child.ts', import.meta.url));

export interface EngineRun {
  perSecond: number;
  done: number;
  workerCpuMs: number;
  serverCpuMs: number;
  busyCores: number;
}

/**
 * The engine alone: `count` workflows of a verification's shape (lab/two-call-workflow.ts: two activities that
 * return at once, then a 1 ms timer; the same four workflow tasks and two activity tasks) started at the project's
 * pace (START_CONCURRENCY, and its start pace at R) through the same dev server, on a task queue of their own whose
 * activities are limited to `maxRps` a second (unset: no limit), with a minimal worker. Timed from the first start
 * until all completed.
 */
export async function runEngine(
  stack: TrafficStack,
  options: { count: number; maxRps?: number; maxMs: number },
): Promise<EngineRun> {
  const { count } = options;
  const taskQueue = `engine-${randomBytes(3).toString('hex')}`;
  const worker = startWorkerChild(['--import', import.meta.resolve('tsx'), CHILD, 'two-calls'], {
    ...stack.bench.workerEnv,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ...(options.maxRps === undefined ? {} : { ELIGIBILITY_MAX_RPS: String(options.maxRps) }),
  });
  try {
    await worker.ready;
    const client = stack.bench.client;
    const cpu = watchCpu({ worker: () => processTree(worker.pid), server: () => processTree(stack.bench.server.pid) });
    const t0 = performance.now();
    // The project's pace at R (its queue's rate is R); with no limit, as fast as Temporal takes them.
    const { maxRps } = options;
    const pace =
      maxRps === undefined
        ? undefined
        : new StartPace({ readRate: () => Promise.resolve({ rps: maxRps }), fallbackRps: maxRps });
    const starts = forEachLimited(count, START_CONCURRENCY, async (i) => {
      await pace?.take();
      await client.workflow.start('twoCallWorkflow', {
        taskQueue,
        workflowId: `${taskQueue}-${i}`,
        args: [trafficRequest(taskQueue, i)],
      });
    });
    const query = `TaskQueue = "${taskQueue}" AND ExecutionStatus = "Completed"`;
    let done = 0;
    while (done < count && performance.now() - t0 < options.maxMs) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      done = (await client.workflow.count(query)).count;
    }
    await starts;
    const perSecond = done / ((performance.now() - t0) / 1000);
    const { ms, busyCores } = cpu();
    return {
      perSecond,
      done,
      workerCpuMs: ms.worker / Math.max(done, 1),
      serverCpuMs: ms.server / Math.max(done, 1),
      busyCores,
    };
  } finally {
    await worker.stop();
  }
}

/** The CPU figures of an engine run, beside the project's. */
export function engineCpuFigures(scenario: string, run: EngineRun): Figure[] {
  const figure = (name: string, value: string) => ({ scenario, subject: 'engine', name, value });
  return [
    figure('worker CPU per workflow', `${run.workerCpuMs.toFixed(0)} ms`),
    figure('Temporal dev server CPU per workflow', `${run.serverCpuMs.toFixed(0)} ms`),
    figure('machine CPU busy', `${run.busyCores.toFixed(2)} of ${os.cpus().length} cores`),
  ];
}

/**
 * The engine's own ceiling on this machine, with no rate limit. Nothing built on this engine and machine goes
 * faster, so the limit scenarios that run after it in the same run also print their throughput against it.
 */
export const engineCeilingScenario: TrafficScenario = {
  name: 'engine',
  description: "the engine's ceiling: a verification's shape with no-op activities, no rate limit",
  async run(stack, { count, log }) {
    log(`engine: ${count} workflows of a verification's shape`);
    const run = await runEngine(stack, { count, maxMs: 10 * 60_000 });
    if (run.done === count) stack.engineCeiling = run.perSecond;
    const unfinished = run.done < count ? ` (stopped at ${run.done} of ${count})` : '';
    return [
      {
        scenario: 'engine',
        subject: 'engine',
        name: 'workflows of a verification’s shape a second',
        value: `${run.perSecond.toFixed(1)}${unfinished}`,
      },
      ...engineCpuFigures('engine', run),
    ];
  },
};
