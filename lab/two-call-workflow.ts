import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import { firstCallPriority } from '../workflows/shared/priority.js';
import type { NoopActivities } from './one-activity-workflow.js';

const { noop } = proxyActivities<NoopActivities>({ startToCloseTimeout: '10 seconds' });

/**
 * The yardstick of the engine's ceiling in `npm run bench:traffic`: a verification's shape with nothing else, two
 * activities in turn and then a 1 ms timer, so the same four workflow tasks, two activity tasks and one timer a
 * verification costs the engine. Its first call goes one key below the second, as a bulk verification's does
 * (`firstCallPriority`), so behind a rate limit it runs in the same order. It takes a verification's (encrypted)
 * input and ignores it.
 */
export async function twoCallWorkflow(_request: unknown): Promise<void> {
  const opening = firstCallPriority(workflowInfo().priority);
  await noop.executeWithOptions(opening ? { priority: opening } : {}, []);
  await noop();
  await sleep(1);
}
