import { activityInfo, heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { DEFAULT_RETRY_WINDOW_SECONDS, type CallPolicy } from '../workflows/shared/activity-options.js';

/** What rides from one attempt to the next in the heartbeat details: when the call first failed. */
interface WindowDetails {
  firstFailureMs: number;
}

function firstFailureMs(): number | undefined {
  const details = activityInfo().heartbeatDetails as Partial<WindowDetails> | undefined;
  return typeof details?.firstFailureMs === 'number' ? details.firstFailureMs : undefined;
}

/**
 * The retry window (docs/developing/service-calls.md): a retryable failure is retried by Temporal until
 * `retryWindowSeconds` after the call's FIRST failure, then it becomes final, with its type and message kept. Time
 * spent queued behind the rate limit before the first attempt never counts (the call has not failed yet), unlike a
 * schedule-to-close timeout.
 *
 * The first failure's time must reach later attempts, which may run on other workers: it is recorded as the attempt's
 * heartbeat details, which the worker sends with the failure and the server hands to the next attempt
 * (`activityInfo().heartbeatDetails`). Only failures heartbeat: a call that succeeds first time costs nothing more.
 * Calls given no policy (those with a deadline: workflows/shared/activity-options.ts) get the default window, which
 * their deadline ends first.
 */
export function withinRetryWindow(failure: unknown, policy: CallPolicy | undefined): unknown {
  if (!(failure instanceof ApplicationFailure) || failure.nonRetryable) return failure;
  const now = Date.now();
  const first = firstFailureMs() ?? now;
  heartbeat({ firstFailureMs: first } satisfies WindowDetails);
  const windowMs = (policy?.retryWindowSeconds ?? DEFAULT_RETRY_WINDOW_SECONDS) * 1000;
  if (now - first < windowMs) return failure;
  return ApplicationFailure.create({
    type: failure.type ?? undefined,
    message: `${failure.message} (still failing ${Math.round((now - first) / 1000)} s after the first failure: retry window over)`,
    nonRetryable: true,
    details: failure.details ?? undefined,
  });
}
