import { Worker, type NativeConnection } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import { variables } from '../src/config.js';
import { metricsSinks } from '../src/metrics/workflow-sinks.js';
import type { Tracing } from '../src/tracing/tracing.js';
import { deploymentOptions } from './deployment-version.js';
import { workerTracing } from './worker-tracing.js';
import type { WorkflowBundleSource } from './workflow-bundle.js';

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
  /** Workflows kept in memory between their tasks (`WORKER_MAX_CACHED_WORKFLOWS`); default: the configured default. */
  maxCachedWorkflows?: number;
  /**
   * Workflow tasks held at once (`WORKER_MAX_CONCURRENT_WORKFLOW_TASKS`). The worker runs them one at a time in its
   * workflow thread, in arrival order, so tasks it holds beyond what it is busy with wait there, where their priority
   * (lanes: docs/developing/traffic.md) counts for nothing; tasks left at the server are dispatched by lane. The SDK's
   * default of 40 keeps check-ins waiting behind a batch's tasks; too few keeps the worker under the service's limit,
   * since every task waits for its round trip to the server. The default is enough to reach the limit and few enough
   * that the front desk stays quick beside a batch.
   */
  maxConcurrentWorkflowTasks?: number;
  /** Pre-bundled workflow code (`loadWorkflowBundle`; tests bundle once per run): the worker never runs webpack. */
  workflowBundle: WorkflowBundleSource;
  /** Where spans go (src/tracing); without it, or with tracing off, the workflows' spans are dropped. */
  tracing?: Tracing;
  /** The Worker Deployment version this worker is (`WORKER_DEPLOYMENT_NAME`); unset: an unversioned worker. */
  deployment?: { name: string; buildId: string };
}

/**
 * The sinks the bundled workflows call: the metrics interceptor's, and the tracing interceptor's when the bundle is the
 * traced one. Both are always registered (a sink the workflows call but the worker lacks is logged as an error at every
 * activation; one nobody calls costs nothing). Replay workers need them as well.
 */
export function workerSinks(tracing?: Tracing) {
  return { ...metricsSinks(), ...workerTracing(tracing).sinks };
}

const DEFAULT_MAX_CACHED_WORKFLOWS = Number(variables.WORKER_MAX_CACHED_WORKFLOWS.default);

const DEFAULT_MAX_CONCURRENT_WORKFLOW_TASKS = Number(variables.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS.default);

/** The worker of the eligibility task queue: the project's workflows and the activities that call the service. */
export async function createWorker(opts: CreateWorkerOptions): Promise<Worker> {
  const maxCachedWorkflows = opts.maxCachedWorkflows ?? DEFAULT_MAX_CACHED_WORKFLOWS;
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: opts.activities,
    dataConverter: opts.dataConverter,
    workflowBundle: opts.workflowBundle,
    sinks: workerSinks(opts.tracing),
    interceptors: { activity: workerTracing(opts.tracing).activityInterceptors },
    // Sized by count, not by the SDK's default, which follows the V8 heap limit: on a big host that cache holds more
    // than a 1 GB container's memory, and the worker would be killed long before it filled. A waiting verification
    // costs nothing while evicted and is replayed from its short history when it wakes.
    maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: Math.min(
      opts.maxConcurrentWorkflowTasks ?? DEFAULT_MAX_CONCURRENT_WORKFLOW_TASKS,
      maxCachedWorkflows,
    ),
    // The service's rate limit is per client, not per worker process: this limit is sent with every activity poll and
    // enforced by the Temporal server across all workers of the task queue, so N workers together still stay under
    // it. Every worker must send the same value; with different values the last poller's wins and they thrash.
    // (`maxActivitiesPerSecond` would cap each process alone, letting N workers send N times the rate.)
    maxTaskQueueActivitiesPerSecond: opts.maxActivitiesPerSecond,
    // A deploy or scale-down sends SIGTERM: polling stops at once, and a call already sent to the service may finish
    // and record its result instead of being cancelled and retried by another worker (WORKER_SHUTDOWN_GRACE_SECONDS;
    // the container's stop timeout must be longer).
    shutdownGraceTime: (opts.shutdownGraceSeconds ?? 0) * 1000,
    ...(opts.deployment
      ? { workerDeploymentOptions: deploymentOptions(opts.deployment.name, opts.deployment.buildId) }
      : {}),
  });
}
