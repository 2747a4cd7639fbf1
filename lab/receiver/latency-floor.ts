/**
 * `npm run bench:latency-floor [-- --waiters 40] [--stagger-ms 100]`: the engine's own floor under `bench:receiver`'s
 * staggered latency, beside the project's `discovery-<id>` alone, on one dev server. The floor: a minimal worker (no
 * interceptors, no codec) whose workflow waits for a signal and then runs one activity that does nothing, as
 * `discovery-<id>` waits for its webhook and then fetches, in three ways: the activity handed over with the workflow
 * task's completion (eager), through the task queue, and through a queue with a rate limit (a governed call's way: the
 * limit turns eager dispatch off). Then the project's worker (`createWorker`: its bundle, codec and limits) running
 * `discovery-<id>`s with no verification waiting, each woken by the receiver's signal-with-start once its discovery has
 * completed at the sandbox. Prints each step's p50 (server clock) and signal sent → activity completed, p50 and p99.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../../activities/index.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { table } from '../../src/text-format.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { createWorker } from '../../workers/create-worker.js';
import { bundleWorkflowsInChild } from '../../workers/workflow-bundle.js';
import { numberArg, startBenchStack, type BenchStack } from '../bench-stack.js';
import { percentile } from '../percentile.js';
import { signalSteps } from './signal-steps.js';
import { bareSignalWithStart, completeDiscovery, newDiscovery } from './stack.js';
import { wakeSignal, type wokenWorkflow } from './woken-workflow.js';
import type { DiscoveryWorkflowInput } from '../../workflows/discovery/discovery.js';
import type { discoveryWorkflow } from '../../workflows/discovery/index.js';

const waiters = numberArg('waiters', 40);
const staggerMs = numberArg('stagger-ms', 100);
const workflowsPath = fileURLToPath(new URL('./woken-workflow.ts', import.meta.url));
const STEPS = ['signalled', 'task started', 'task completed', 'activity started', 'activity completed'] as const;

/** What a row measures: workflows waiting on `worker`, and how one is made ready and then woken. */
interface Waiting {
  worker: Worker;
  handles: WorkflowHandle[];
  /** Untimed, before the signal (the project's discovery completes at the sandbox). */
  prepare?: (i: number) => Promise<void>;
  wake(i: number): Promise<void>;
}

/** Wakes each workflow `staggerMs` apart once every first task is done; the row's figures from the histories. */
async function row(name: string, waiting: Waiting): Promise<{ cells: string[]; p50: number }> {
  const { worker, handles } = waiting;
  const running = worker.run();
  await sleep(2000);
  const sentAt: number[] = [];
  for (const [i] of handles.entries()) {
    await waiting.prepare?.(i);
    sentAt[i] = Date.now();
    await waiting.wake(i);
    await sleep(staggerMs);
  }
  await Promise.all(handles.map((h) => h.result()));
  const byStep = STEPS.map(() => [] as number[]);
  const totals: number[] = [];
  for (const [i, handle] of handles.entries()) {
    const s = signalSteps((await handle.fetchHistory()).events ?? [], sentAt[i]!) ?? STEPS.map(() => Number.NaN);
    s.forEach((v, k) => byStep[k]!.push(v));
    totals.push(s.reduce((a, b) => a + b, 0));
  }
  worker.shutdown();
  await running;
  const cells = [
    name,
    ...byStep.map((xs) => `+${Math.round(percentile(xs, 50))}`),
    `${Math.round(percentile(totals, 50))} / ${Math.round(percentile(totals, 99))} ms`,
  ];
  return { cells, p50: percentile(totals, 50) };
}

/** `client` unencrypted: the minimal worker has no codec. */
async function minimal(
  client: Client,
  connection: NativeConnection,
  dispatch: 'eager' | 'queued',
  options: Partial<WorkerOptions>,
): Promise<Waiting> {
  const taskQueue = `floor-${randomUUID()}`;
  const worker = await Worker.create({
    connection,
    namespace: client.options.namespace,
    taskQueue,
    workflowsPath,
    activities: { noop: () => Promise.resolve() },
    ...options,
  });
  const handles: WorkflowHandle[] = [];
  for (let i = 0; i < waiters; i += 1) {
    const workflowId = `floor-${randomUUID()}`;
    handles.push(
      await client.workflow.start<typeof wokenWorkflow>('wokenWorkflow', { taskQueue, workflowId, args: [dispatch] }),
    );
  }
  const wake = async (i: number) => {
    const { workflowId } = handles[i]!;
    await client.workflow.signalWithStart<typeof wokenWorkflow, []>('wokenWorkflow', {
      workflowId,
      taskQueue,
      args: [dispatch],
      signal: wakeSignal,
    });
  };
  return { worker, handles, wake };
}

/** The project's `discovery-<id>`s, each for a pending discovery whose waiter has looked (so none fetches at start). */
async function project(stack: BenchStack, connection: NativeConnection): Promise<Waiting> {
  const { client, taskQueue } = stack;
  const config = loadConfig('worker', { ELIGIBILITY_BASE_URL: stack.sandboxUrl });
  const worker = await createWorker({
    connection,
    namespace: client.options.namespace,
    taskQueue,
    activities: createActivities(new EligibilityClient(config.service)),
    dataConverter: client.options.dataConverter,
    maxActivitiesPerSecond: 100_000,
    workflowBundle: await bundleWorkflowsInChild(),
  });
  const ids: string[] = [];
  const handles: WorkflowHandle[] = [];
  const timing = { pollInitialSeconds: 3600, pollMaxSeconds: 3600 };
  for (let i = 0; i < waiters; i += 1) {
    const discoveryId = await newDiscovery(stack);
    ids.push(discoveryId);
    const input: DiscoveryWorkflowInput = { discoveryId, looked: true, waiters: [], timing };
    const workflowId = discoveryWorkflowId(discoveryId);
    handles.push(
      await client.workflow.start<typeof discoveryWorkflow>(WorkflowType.discovery, {
        taskQueue,
        workflowId,
        args: [input],
      }),
    );
  }
  return {
    worker,
    handles,
    prepare: (i) => completeDiscovery(stack, ids[i]!),
    wake: (i) => bareSignalWithStart(stack, ids[i]!, `evt_${randomUUID()}`),
  };
}

async function run() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stack = await startBenchStack();
  const connection = await NativeConnection.connect({ address: stack.server.address });
  const plain = new Client({ connection: stack.client.connection, namespace: stack.client.options.namespace });
  const rows: { cells: string[]; p50: number }[] = [];
  let governed: number;
  let ours: number;
  try {
    rows.push(await row('floor: eager, with the task completion', await minimal(plain, connection, 'eager', {})));
    rows.push(await row('floor: through the task queue', await minimal(plain, connection, 'queued', {})));
    const limited = { maxTaskQueueActivitiesPerSecond: 100_000 };
    rows.push(await row('floor: through a rate-limited queue', await minimal(plain, connection, 'eager', limited)));
    governed = rows.at(-1)!.p50;
    rows.push(await row("the project's discovery-<id>, alone", await project(stack, connection)));
    ours = rows.at(-1)!.p50;
  } finally {
    await connection.close();
    await stack.stop();
  }
  console.log(
    `\n${waiters} workflows each woken by a signal-with-start ${staggerMs} ms apart; each step's p50 in ms since the one before it\n`,
  );
  console.log(
    table(
      ['activity dispatch', ...STEPS, 'sent → completed, p50 / p99'],
      rows.map((r) => r.cells),
    ),
  );
  console.log(
    `\nthe project's discovery-<id> ÷ the floor behind a rate-limited queue, p50: ${(ours / governed).toFixed(2)}`,
  );
  console.log("bench:receiver's target for the same path (its activity a fetch): p50 ≤ 50 ms, p99 ≤ 250 ms");
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
