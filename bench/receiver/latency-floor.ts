/**
 * `npm run bench:latency-floor [-- --waiters 40] [--stagger-ms 100]`: the engine's own floor under `bench:receiver`'s
 * staggered latency, on one dev server: a minimal worker (no interceptors, no codec, nothing else running) whose
 * workflow waits for a signal and then runs one activity that does nothing, as `discovery-<id>` waits for its webhook
 * and then fetches. Three ways, one after the other: the activity handed over with the workflow task's completion
 * (eager), through the task queue, and through a queue with a rate limit (a governed call's way: the limit turns eager
 * dispatch off). Prints each step's p50 (server clock) and signal sent → activity completed, p50 and p99.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { table } from '../../src/text-format.js';
import { eventMs, type HistoryEvent } from '../billed-actions.js';
import { numberArg, startBenchStack } from '../bench-stack.js';
import type { wokenWorkflow } from './woken-workflow.js';
import { wakeSignal } from './woken-workflow.js';

const waiters = numberArg('waiters', 40);
const staggerMs = numberArg('stagger-ms', 100);
const workflowsPath = fileURLToPath(new URL('./woken-workflow.ts', import.meta.url));
const STEPS = ['signalled', 'task started', 'task completed', 'activity started', 'activity completed'] as const;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/** Each step's time since the one before it, the first since the signal was sent, from the history (server clock). */
function steps(events: HistoryEvent[], sentAt: number): number[] {
  const signal = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes);
  const after = events.slice(signal);
  const at = [
    events[signal],
    after.find((e) => e.workflowTaskStartedEventAttributes),
    after.find((e) => e.workflowTaskCompletedEventAttributes),
    after.find((e) => e.activityTaskStartedEventAttributes),
    after.find((e) => e.activityTaskCompletedEventAttributes),
  ].map((e) => (e ? eventMs(e) : Number.NaN));
  return at.map((t, k) => t - (k === 0 ? sentAt : at[k - 1]!));
}

async function run() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stack = await startBenchStack();
  const client = new Client({ connection: stack.client.connection, namespace: stack.client.options.namespace });
  const connection = await NativeConnection.connect({ address: stack.server.address });
  const rows: (string | number)[][] = [];
  const ways: [string, 'eager' | 'queued', Partial<WorkerOptions>][] = [
    ['eager: with the task completion', 'eager', {}],
    ['through the task queue', 'queued', {}],
    ['through a rate-limited queue (governed)', 'eager', { maxTaskQueueActivitiesPerSecond: 100_000 }],
  ];
  try {
    for (const [name, dispatch, options] of ways) {
      const taskQueue = `floor-${randomUUID()}`;
      const worker = await Worker.create({
        connection,
        namespace: stack.client.options.namespace,
        taskQueue,
        workflowsPath,
        activities: { noop: () => Promise.resolve() },
        ...options,
      });
      const running = worker.run();
      const handles: WorkflowHandle<typeof wokenWorkflow>[] = [];
      for (let i = 0; i < waiters; i += 1) {
        const workflowId = `floor-${randomUUID()}`;
        handles.push(
          await client.workflow.start<typeof wokenWorkflow>('wokenWorkflow', {
            taskQueue,
            workflowId,
            args: [dispatch],
          }),
        );
      }
      await sleep(2000); // every first task done: each workflow waits on its timer
      const sentAt: number[] = [];
      for (const handle of handles) {
        sentAt.push(Date.now());
        await client.workflow.signalWithStart<typeof wokenWorkflow, []>('wokenWorkflow', {
          workflowId: handle.workflowId,
          taskQueue,
          args: [dispatch],
          signal: wakeSignal,
        });
        await sleep(staggerMs);
      }
      await Promise.all(handles.map((h) => h.result()));
      const byStep = STEPS.map(() => [] as number[]);
      const totals: number[] = [];
      for (const [i, handle] of handles.entries()) {
        const s = steps((await handle.fetchHistory()).events ?? [], sentAt[i]!);
        s.forEach((v, k) => byStep[k]!.push(v));
        totals.push(s.reduce((a, b) => a + b, 0));
      }
      worker.shutdown();
      await running;
      const ms = (v: number) => `+${Math.round(v)}`;
      rows.push([
        name,
        ...byStep.map((xs) => ms(percentile(xs, 50))),
        `${Math.round(percentile(totals, 50))} / ${Math.round(percentile(totals, 99))} ms`,
      ]);
    }
  } finally {
    await connection.close();
    await stack.stop();
  }
  console.log(
    `\n${waiters} workflows each woken by a signal-with-start ${staggerMs} ms apart; each step's p50 in ms since the one before it\n`,
  );
  console.log(table(['activity dispatch', ...STEPS, 'sent → completed, p50 / p99'], rows));
  console.log("\nbench:receiver's target for the same path (its activity a fetch): p50 ≤ 50 ms, p99 ≤ 250 ms");
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
