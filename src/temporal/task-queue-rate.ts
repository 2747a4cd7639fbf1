import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

const ACTIVITY = proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY;
const NORMAL = proto.temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL;
/** The config metadata keeps who set a rate; the governor's writes say so (`temporal task-queue config get`). */
const IDENTITY = 'eligibility-governor';
/** The server keeps at most this much of the reason. */
const MAX_REASON = 200;

/**
 * Sets a task queue's activity dispatch rate (`temporal task-queue config set --queue-rps-limit`): the server
 * dispatches at most `rps` activity tasks a second across all its workers, whatever they send with their polls.
 */
export async function setQueueRateLimit(client: Client, taskQueue: string, rps: number, reason: string): Promise<void> {
  await client.workflowService.updateTaskQueueConfig({
    namespace: client.options.namespace,
    identity: IDENTITY,
    taskQueue,
    taskQueueType: ACTIVITY,
    updateQueueRateLimit: { rateLimit: { requestsPerSecond: rps }, reason: reason.slice(0, MAX_REASON) },
  });
}

/** A task queue's activity dispatch rate as its config holds it, and why it was set (`temporal task-queue config get`). */
export interface QueueRate {
  rps: number;
  reason: string;
}

/**
 * The task queue's activity dispatch rate and the reason given with it, or undefined when none is set (the workers'
 * `maxTaskQueueActivitiesPerSecond` then applies). A describe is not a billed action, unlike the governor's `status`
 * query.
 */
export async function readQueueRate(client: Client, taskQueue: string): Promise<QueueRate | undefined> {
  const { config } = await describeActivityQueue(client, taskQueue, false);
  return rateOf(config);
}

/** A task queue's dispatch as the server holds it: its rate (undefined when none is set) and its backlog. */
export interface QueueDispatch {
  rate: QueueRate | undefined;
  /** Activity tasks waiting to be dispatched, all priorities (the server's approximate count, cached for seconds). */
  backlog: number;
}

/**
 * The task queue's activity dispatch rate and backlog, in one describe (not billed). Asking for the backlog makes the
 * server gather it from every partition, so only readers that need it ask.
 */
export async function readQueueDispatch(client: Client, taskQueue: string): Promise<QueueDispatch> {
  const { config, stats } = await describeActivityQueue(client, taskQueue, true);
  return { rate: rateOf(config), backlog: Number(stats?.approximateBacklogCount ?? 0) };
}

function describeActivityQueue(client: Client, taskQueue: string, reportStats: boolean) {
  return client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: NORMAL },
    taskQueueType: ACTIVITY,
    reportConfig: true,
    reportStats,
  });
}

function rateOf(config: proto.temporal.api.taskqueue.v1.ITaskQueueConfig | null | undefined): QueueRate | undefined {
  const queueRateLimit = config?.queueRateLimit;
  if (!queueRateLimit?.rateLimit) return undefined;
  // The server keeps a float32: 13.6 comes back as 13.600000381. The governor sets hundredths.
  const rps = Math.round((queueRateLimit.rateLimit.requestsPerSecond ?? 0) * 1000) / 1000;
  return { rps, reason: queueRateLimit.metadata?.reason ?? '' };
}

/**
 * The task queue's activity dispatch rate as set in its config, or undefined when none is set: the gauge source for
 * metrics (the governed rate), where the `status` query would cost one action per scrape.
 */
export async function readQueueRateLimit(client: Client, taskQueue: string): Promise<number | undefined> {
  return (await readQueueRate(client, taskQueue))?.rps;
}
