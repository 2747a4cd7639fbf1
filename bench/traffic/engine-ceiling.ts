import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { forEachLimited, startWorkerChild } from '../bench-stack.js';
import { machineCpuMs, processCpuMs, processTree } from '../proc-stats.js';
import { trafficRequest } from './project-run.js';
import type { TrafficScenario } from './scenario.js';

const CHILD = fileURLToPath(new URL('../worker-child.ts', import.meta.url));
const START_CONCURRENCY = 50;
const MAX_MS = 10 * 60_000;

/**
 * The engine's own ceiling on this machine: workflows a second of a verification's shape (bench/two-call-workflow.ts:
 * two activities that return at once, then a 1 ms timer) through the same dev server, with a minimal worker and no
 * rate limit. Nothing built on this engine and machine can go faster, so the limit scenarios that run after it in the
 * same run also print their throughput against it: at R = 40 and 200 that, not the limit, is the ceiling.
 */
export const engineCeilingScenario: TrafficScenario = {
  name: 'engine',
  description: "the engine's ceiling: a verification's shape with no-op activities, no rate limit",
  async run(stack, { count, log }) {
    const taskQueue = `engine-${randomBytes(3).toString('hex')}`;
    const worker = startWorkerChild(['--import', import.meta.resolve('tsx'), CHILD, 'two-calls'], {
      ...stack.bench.workerEnv,
      TEMPORAL_TASK_QUEUE: taskQueue,
    });
    try {
      await worker.ready;
      log(`engine: ${count} workflows of a verification's shape`);
      const client = stack.bench.client;
      const cpu0 = processCpuMs(...processTree(worker.pid));
      const serverCpu0 = processCpuMs(...processTree(stack.bench.server.pid));
      const machine0 = machineCpuMs();
      const t0 = performance.now();
      const starts = forEachLimited(count, START_CONCURRENCY, async (i) => {
        await client.workflow.start('twoCallWorkflow', {
          taskQueue,
          workflowId: `${taskQueue}-${i}`,
          args: [trafficRequest(taskQueue, i)],
        });
      });
      const query = `TaskQueue = "${taskQueue}" AND ExecutionStatus = "Completed"`;
      let done = 0;
      while (done < count && performance.now() - t0 < MAX_MS) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        done = (await client.workflow.count(query)).count;
      }
      await starts;
      const seconds = (performance.now() - t0) / 1000;
      const perSecond = done / seconds;
      const machine = machineCpuMs();
      const busyCores = ((machine.busyMs - machine0.busyMs) / (machine.totalMs - machine0.totalMs)) * os.cpus().length;
      const workerMs = (processCpuMs(...processTree(worker.pid)) - cpu0) / Math.max(done, 1);
      const serverMs = (processCpuMs(...processTree(stack.bench.server.pid)) - serverCpu0) / Math.max(done, 1);
      if (done === count) stack.engineCeiling = perSecond;
      const figure = (name: string, value: string) => ({ scenario: 'engine', subject: 'engine', name, value });
      return [
        figure(
          'workflows of a verification’s shape a second',
          `${perSecond.toFixed(1)}${done < count ? ` (stopped at ${done} of ${count})` : ''}`,
        ),
        figure('worker CPU per workflow', `${workerMs.toFixed(0)} ms`),
        figure('Temporal dev server CPU per workflow', `${serverMs.toFixed(0)} ms`),
        figure('machine CPU busy', `${busyCores.toFixed(2)} of ${os.cpus().length} cores`),
      ];
    } finally {
      await worker.stop();
    }
  },
};
