import type { Client } from '@temporalio/client';
import type { GovernorActivities } from '../../workflows/governor/index.js';
import { setQueueRateLimit } from '../../src/temporal/task-queue-rate.js';

/**
 * The governor's one activity (run as a local activity by `governorWorkflow`): writes the task queue's activity
 * dispatch rate into Temporal's task-queue config, where it overrides the rate workers send with their polls.
 */
export function createGovernorActivities(client: Client): GovernorActivities {
  return {
    applyQueueRate: (taskQueue: string, rps: number, reason: string): Promise<void> =>
      setQueueRateLimit(client, taskQueue, rps, `governor: ${reason}`),
  };
}
