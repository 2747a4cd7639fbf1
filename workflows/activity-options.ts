import type { ActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from './failure-types.js';

/**
 * Options of every activity that calls the eligibility service. Temporal is the only retry layer (the HTTP client
 * runs with `retry: 0` and repeats a call only once, after refreshing a rejected token), so these numbers are the
 * whole retry behaviour. Each attempt is one billed action: the backoff and the caps below bound that cost too.
 */
export const serviceCallOptions: ActivityOptions = {
  // An attempt is normally one HTTP call (10 s client timeout, ELIGIBILITY_HTTP_TIMEOUT_MS), at worst four: token,
  // call, refreshed token, repeated call. 45 s covers that worst case, so an attempt still working is not timed out
  // and run twice in parallel, and still lets the server notice a lost worker within a minute. No heartbeat: a
  // heartbeat is a billed action, and a call of seconds does not need one to be cancelled (the timeout bounds it).
  startToCloseTimeout: '45 seconds',
  // Bounds all attempts, including time queued behind the task-queue rate limit (ELIGIBILITY_MAX_RPS). The
  // workflow's own deadlines are the business limit; this only stops a call retrying for ever against a service that
  // stays down, and turns that into a failure the workflow can report.
  scheduleToCloseTimeout: '1 hour',
  retry: {
    // 5xx and network errors: 2 s, 4 s, 8 s, ... A 429 replaces the next delay with the service's Retry-After (or a
    // jittered backoff when it gives none), and Unauthorized with a slow fixed delay: see activities/failures.ts.
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    // A few minutes at most between attempts, so a recovered service is used again soon; about 25 attempts fit in
    // the hour above.
    maximumInterval: '3 minutes',
    // Unlimited attempts: the schedule-to-close timeout is the bound, expressed in time rather than a count.
    // Failures no retry can fix stop at once, by type (the activities also mark them non-retryable themselves).
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
};
