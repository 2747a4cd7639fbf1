import type { ActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from './failure-types.js';

/**
 * The backoff of every retried service call: 2 s, 4 s, 8 s, ... at most 3 minutes apart, so a recovered service is
 * used again soon. Temporal applies it to activities; v1 creation's own retry loop applies the same numbers.
 */
export const RETRY_BACKOFF = { initialSeconds: 2, coefficient: 2, maximumSeconds: 180 } as const;
/**
 * How long a verification keeps retrying a failing service, from the call's first failure (queued time never counts):
 * the 8 to 24 h clearinghouses give batch checks. A batch sets its own (`retryWindow`), a single request may too.
 */
export const DEFAULT_RETRY_WINDOW_SECONDS = 24 * 3600;
/**
 * The calls outside a verification's retry window (a discovery's fetch, webhook setup, a run's update) give up this
 * long after they were scheduled, time queued behind the rate limit included: something waits on each of them.
 */
export const CALL_DEADLINE_SECONDS = 3600;

/** How a service call is retried, passed to the activity with its arguments (activities/retry-window.ts). */
export interface CallPolicy {
  /** Retryable failures stop being retried this long after the call's first failure. */
  retryWindowSeconds: number;
}

/**
 * What every attempt at a service call shares. Temporal is the only retry layer (the HTTP client runs with `retry: 0`
 * and repeats a call only once, after refreshing a rejected token), so these numbers are the whole retry behaviour.
 * Each attempt is one billed action: the backoff bounds that cost too.
 */
const attempts = {
  // An attempt is normally one HTTP call (10 s client timeout, ELIGIBILITY_HTTP_TIMEOUT_MS), at worst four: token,
  // call, refreshed token, repeated call. 45 s covers that worst case, so an attempt still working is not timed out
  // and run twice in parallel, and still lets the server notice a lost worker within a minute. No heartbeat: a
  // heartbeat is a billed action, and a call of seconds does not need one to be cancelled (the timeout bounds it).
  startToCloseTimeout: '45 seconds',
  retry: {
    // 5xx and network errors: 2 s, 4 s, 8 s, ... A 429 replaces the next delay with the service's Retry-After (or a
    // jittered backoff when it gives none), and Unauthorized with a slow fixed delay: see activities/failures.ts.
    initialInterval: RETRY_BACKOFF.initialSeconds * 1000,
    backoffCoefficient: RETRY_BACKOFF.coefficient,
    maximumInterval: RETRY_BACKOFF.maximumSeconds * 1000,
    // Unlimited attempts: a deadline or the retry window is the bound, expressed in time rather than a count. Failures
    // no retry can fix stop at once, by type (the activities also mark them non-retryable themselves).
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
} satisfies ActivityOptions;

/**
 * A verification's payer lookup, v2 creation and registration with its discovery: no schedule-to-close, so a call
 * waits in the queue behind the rate limit (a backlog of hours at a low limit) as long as it must and never fails for
 * it. The activity itself turns a retryable failure into a final one once its `CallPolicy` window since the first
 * failure has passed (activities/retry-window.ts).
 */
export const verificationCallOptions: ActivityOptions = attempts;

/**
 * Calls something waits on (a discovery's fetch, webhook setup, a run's update): bounded from their scheduling,
 * queueing included, so the waiter hears of a service that stays down as a failure it can report.
 */
export const deadlineCallOptions: ActivityOptions = {
  ...attempts,
  scheduleToCloseTimeout: CALL_DEADLINE_SECONDS * 1000,
};

/**
 * v1 creation (docs/developing/service-calls.md): the spec gives it no idempotency and no lookup, so Temporal never
 * retries it. A retry policy cannot tell a definite refusal from an attempt that timed out or whose worker died
 * mid-call (either may have created a verification), so the one attempt is all Temporal makes; the workflow itself
 * retries definite refusals within the retry window (workflows/verification/v1-creation.ts) and hands anything
 * ambiguous to a person. No schedule-to-start: a task waiting in a long queue is not a refusal.
 */
export const v1CreationOptions: ActivityOptions = {
  startToCloseTimeout: attempts.startToCloseTimeout,
  retry: { maximumAttempts: 1 },
};
