import { fileURLToPath } from 'node:url';
import { Worker, type NativeConnection } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import type { Activities } from '../activities/index.js';

export interface CreateWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: Activities;
  /** The same converter as the clients' (src/codec): payloads are encrypted before they reach the server. */
  dataConverter: DataConverter;
  /** Calls per second to the service across every worker of the task queue (`ELIGIBILITY_MAX_RPS`). */
  maxActivitiesPerSecond: number;
  /** On shutdown (SIGTERM), how long activities in flight may finish before they are cancelled (default 0). */
  shutdownGraceSeconds?: number;
  /** Pre-bundled workflow code (tests bundle once per suite); else `workflowsPath` is bundled at start. */
  workflowBundle?: { code: string };
  workflowsPath?: string;
}

export const defaultWorkflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** The worker of the eligibility task queue: the project's workflows and the activities that call the service. */
export async function createWorker(opts: CreateWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: opts.activities,
    dataConverter: opts.dataConverter,
    // The service's rate limit is per client, not per worker process: this limit is sent with every activity poll and
    // enforced by the Temporal server across all workers of the task queue, so N workers together still stay under
    // it. Every worker must send the same value; with different values the last poller's wins and they thrash.
    // (`maxActivitiesPerSecond` would cap each process alone, letting N workers send N times the rate.)
    maxTaskQueueActivitiesPerSecond: opts.maxActivitiesPerSecond,
    // A deploy or scale-down sends SIGTERM: polling stops at once, and a call already sent to the service may finish
    // and record its result instead of being cancelled and retried by another worker (WORKER_SHUTDOWN_GRACE_SECONDS;
    // the container's stop timeout must be longer).
    shutdownGraceTime: (opts.shutdownGraceSeconds ?? 0) * 1000,
    ...(opts.workflowBundle
      ? { workflowBundle: opts.workflowBundle }
      : { workflowsPath: opts.workflowsPath ?? defaultWorkflowsPath }),
  });
}
