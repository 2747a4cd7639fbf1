import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { governorStatusQuery, governorWorkflowId } from '../../workflows/governor/governor.js';
import type { GovernorStatus } from '../../workflows/governor/governor.js';
import { readQueueRateLimit } from './task-queue-rate.js';

/** A query needs a worker to answer it. */
const QUERY_TIMEOUT_MS = 10_000;

export interface GovernorView {
  taskQueue: string;
  /** The task queue's configured dispatch rate, as the server enforces it (undefined: none set, workers' value). */
  queueRps: number | undefined;
  /** The governor's own view (undefined: no governor has run on this queue). */
  status: GovernorStatus | undefined;
}

/** The governor of `taskQueue` and the rate its task queue enforces (`eligibility governor`). */
export async function describeGovernor(client: Client, taskQueue: string): Promise<GovernorView> {
  const queueRps = await readQueueRateLimit(client, taskQueue);
  const handle = client.workflow.getHandle(governorWorkflowId(taskQueue));
  try {
    const status = await client.withDeadline(Date.now() + QUERY_TIMEOUT_MS, () => handle.query(governorStatusQuery));
    return { taskQueue, queueRps, status };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { taskQueue, queueRps, status: undefined };
    throw err;
  }
}
