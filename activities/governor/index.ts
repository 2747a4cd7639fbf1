import type { Client } from '@temporalio/client';
import type { GovernorActivities } from '../../workflows/governor/index.js';
import { setQueueRateLimit } from '../../src/temporal/task-queue-rate.js';
import { decideRate } from './aimd.js';

/**
 * The governor's local activities (`governorWorkflow`): its rules, run here so that their result is recorded and a
 * change to them replays, and the write of the task queue's activity dispatch rate into Temporal's task-queue config,
 * where it overrides the rate workers send with their polls.
 */
export function createGovernorActivities(client: Client): GovernorActivities {
  return {
    decideRate: (decision) => Promise.resolve(decideRate(decision)),
    applyQueueRate: (taskQueue: string, rps: number, reason: string): Promise<void> =>
      setQueueRateLimit(client, taskQueue, rps, `governor: ${reason}`),
  };
}
