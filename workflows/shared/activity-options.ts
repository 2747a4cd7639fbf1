import type { ActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from './failure-types.js';

/**
 * The backoff of every retried service call: 2 s, 4 s, 8 s, ... at most 3 minutes apart, so a recovered service is
 * used again soon. Temporal applies it to activities; v1 creation's own retry loop applies the same numbers.
 */
export const RETRY_BACKOFF = { initialSeconds: 2, coefficient: 2, maximumSeconds: 180 } as const;
/**
 * Before the retry-window patch (histories recorded earlier): a failing call was retried for this long from its
 * scheduling, time queued behind the rate limit included.
 */
export const RETRY_WINDOW_SECONDS = 3600;
/**
 * How long a verification keeps retrying a failing service, from the call's first failure (queued time never counts):
 * the 8 to 24 h clearinghouses give batch checks. A batch sets its own (`retryWindow`), a single request may too.
 */
export const DEFAULT_RETRY_WINDOW_SECONDS = 24 * 3600;

/**
 * Marks verifications whose calls are bounded by the retry window, not by a schedule-to-close that counts queueing.
 * Legacy: it and its old path go in the first version after the first versioned build has drained (decision 35).
 */
export const RETRY_WINDOW_PATCH = 'retry-window';

/** How a service call is retried, passed to the activity with its arguments (activities/retry-window.ts). */
export interface CallPolicy {
  /** Retryable failures stop being retried this long after the call's first failure. */
  retryWindowSeconds: number;
}

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
  scheduleToCloseTimeout: RETRY_WINDOW_SECONDS * 1000,
  retry: {
    // 5xx and network errors: 2 s, 4 s, 8 s, ... A 429 replaces the next delay with the service's Retry-After (or a
    // jittered backoff when it gives none), and Unauthorized with a slow fixed delay: see activities/failures.ts.
    initialInterval: RETRY_BACKOFF.initialSeconds * 1000,
    backoffCoefficient: RETRY_BACKOFF.coefficient,
    // A few minutes at most between attempts, so a recovered service is used again soon; about 25 attempts fit in
    // the hour above.
    maximumInterval: RETRY_BACKOFF.maximumSeconds * 1000,
    // Unlimited attempts: the schedule-to-close timeout is the bound, expressed in time rather than a count.
    // Failures no retry can fix stop at once, by type (the activities also mark them non-retryable themselves).
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
};

/**
 * The service calls of a verification under the retry-window patch: no schedule-to-close, so a call waits in the
 * queue behind the rate limit (a backlog of hours at a low limit) as long as it must and never fails for it. Each
 * attempt still has its start-to-close; the activity itself turns a retryable failure into a final one once its
 * `CallPolicy` window since the first failure has passed (activities/retry-window.ts).
 */
export const windowedCallOptions: ActivityOptions = {
  startToCloseTimeout: serviceCallOptions.startToCloseTimeout,
  retry: serviceCallOptions.retry,
};

/**
 * v1 creation (DESIGN §10): the spec gives it no idempotency and no lookup, so Temporal never retries it. A retry
 * policy cannot tell a definite refusal from an attempt that timed out or whose worker died mid-call (either may have
 * created a verification), so the one attempt is all Temporal makes; the workflow itself retries definite refusals
 * (workflows/v1-creation.ts) and hands anything ambiguous to a person.
 */
export const v1CreationOptions: ActivityOptions = {
  startToCloseTimeout: serviceCallOptions.startToCloseTimeout,
  // Time queued behind the task-queue rate limit: a task never started sent nothing, so this timeout is a definite
  // "not created" (no schedule-to-close, which could fire either side of the start).
  scheduleToStartTimeout: RETRY_WINDOW_SECONDS * 1000,
  retry: { maximumAttempts: 1 },
};

/**
 * v1 creation under the retry-window patch: no schedule-to-start either. A task waiting in a long queue is not a
 * refusal (that timeout ended such a creation as refused after an hour of backlog); the workflow's own retry loop
 * counts its window from the first definite refusal (workflows/v1-creation.ts).
 */
export const windowedV1CreationOptions: ActivityOptions = {
  startToCloseTimeout: serviceCallOptions.startToCloseTimeout,
  retry: { maximumAttempts: 1 },
};
