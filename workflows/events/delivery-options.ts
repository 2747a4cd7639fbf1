import type { ActivityOptions } from '@temporalio/workflow';
import { DeliveryFailure, type DeliveryPolicy } from './events.js';

/**
 * One delivery's options: each attempt `attemptTimeoutSeconds`, retried with growing intervals until the window from
 * its first attempt ends. A delivery carried across continue-as-new resumes at the interval it had reached.
 */
export function deliveryOptions(policy: DeliveryPolicy, firstAttemptAt: number, now: number): ActivityOptions {
  const elapsed = Math.max(0, now - firstAttemptAt);
  const max = policy.maximumIntervalSeconds * 1000;
  let interval = policy.initialIntervalSeconds * 1000;
  for (let t = 0; t + interval <= elapsed && interval < max;) {
    t += interval;
    interval = Math.min(max, interval * policy.backoffCoefficient);
  }
  const attempt = policy.attemptTimeoutSeconds * 1000;
  return {
    taskQueue: policy.taskQueue,
    startToCloseTimeout: attempt,
    scheduleToCloseTimeout: Math.max(attempt, policy.windowSeconds * 1000 - elapsed),
    retry: {
      initialInterval: interval,
      backoffCoefficient: policy.backoffCoefficient,
      maximumInterval: max,
      nonRetryableErrorTypes: [DeliveryFailure.Gone],
    },
    summary: 'deliver an event',
  };
}
