import { ActivityFailure, ApplicationFailure, TimeoutFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { VerificationActivities } from './activities.js';
import type { VerificationRequestV1 } from '../../src/contract/index.js';
import { RETRY_BACKOFF, v1CreationOptions } from '../shared/activity-options.js';
import { failureDetails } from '../shared/failure-details.js';
import { FailureType } from '../shared/failure-types.js';
import { describeFailure } from './failures.js';
import type { ProgressReport } from './progress.js';
import type { CreationReview } from './review.js';
import type { StageTracker } from './stage.js';
import { activitySummary, timerSummary } from './summaries.js';
import type { LastError } from './verification.js';
import { humanDuration } from '../shared/ui-text.js';

const { createVerificationV1 } = proxyActivities<VerificationActivities>(v1CreationOptions);

export type V1Creation =
  | { kind: 'created'; verificationId: string }
  | { kind: 'refused'; failure: unknown }
  | { kind: 'closed'; outcome: 'cancelled' | 'timed-out' | 'abandoned' };

/** Refusals after which nothing exists at the service: retried with backoff, or final. */
const RETRIED_REFUSALS: readonly string[] = [
  FailureType.RateLimited,
  FailureType.Unauthorized,
  FailureType.NetworkError, // only a connection never made reaches the workflow as this type
  FailureType.ServerError, // only 408 (the server gave up on an incomplete request); other 5xx are ambiguous
];
const FINAL_REFUSALS: readonly string[] = [FailureType.InvalidRequest, FailureType.NotFound];

type Verdict = 'retry' | 'final' | 'ambiguous';

/**
 * What a failed v1 creation tells. Anything not known to be a refusal is ambiguous: the activity's own
 * `AmbiguousOutcome` (no answer, a 5xx, an answer outside the contract), a start-to-close timeout (a stalled call or a
 * lost worker, either of which may have sent the request), a cancellation mid-call, a failure of unknown type. Only a
 * schedule-to-start timeout says the attempt never started.
 */
export function v1FailureVerdict(err: unknown): Verdict {
  if (!(err instanceof ActivityFailure)) return 'ambiguous';
  const cause = err.cause;
  if (cause instanceof TimeoutFailure) return cause.timeoutType === 'SCHEDULE_TO_START' ? 'final' : 'ambiguous';
  if (!(cause instanceof ApplicationFailure) || !cause.type) return 'ambiguous';
  if (RETRIED_REFUSALS.includes(cause.type)) return 'retry';
  return FINAL_REFUSALS.includes(cause.type) ? 'final' : 'ambiguous';
}

/** The delay before retrying a refusal: the policy's backoff, or longer when the service (or activity) says so. */
function retryDelayMs(err: unknown, attempt: number): number {
  const { initialSeconds, coefficient, maximumSeconds } = RETRY_BACKOFF;
  const backoff = Math.min(maximumSeconds, initialSeconds * coefficient ** (attempt - 1)) * 1000;
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  const asked = cause instanceof ApplicationFailure ? failureDetails(cause).retryDelayMs : 0;
  return Math.max(backoff, typeof asked === 'number' ? asked : 0);
}

/**
 * One creation, retried by the workflow (never by Temporal) while the service refuses it definitely, for
 * `retryWindowSeconds` after the first refusal.
 */
async function createOnce(
  request: VerificationRequestV1,
  progress: ProgressReport,
  retryWindowSeconds: number,
): Promise<V1Creation | { kind: 'ambiguous'; failure: unknown }> {
  let deadline = Infinity;
  for (let attempt = 1; ; attempt += 1) {
    const summary = activitySummary.createV1(attempt);
    progress.at({ doing: summary });
    try {
      const created = await createVerificationV1.executeWithOptions({ summary }, [request]);
      return { kind: 'created', verificationId: created.verificationId };
    } catch (err) {
      const verdict = v1FailureVerdict(err);
      if (verdict === 'ambiguous') return { kind: 'ambiguous', failure: err };
      const delayMs = retryDelayMs(err, attempt);
      if (deadline === Infinity) deadline = Date.now() + retryWindowSeconds * 1000;
      if (verdict === 'final' || Date.now() + delayMs > deadline) return { kind: 'refused', failure: err };
      const backoff = timerSummary.v1Backoff(delayMs, describeFailure(err).type);
      const left = humanDuration(deadline - Date.now());
      progress.at({ doing: `${backoff}; retry window left ${left}`, until: Date.now() + delayMs });
      await sleep(delayMs, { summary: backoff });
    }
  }
}

/** The ambiguity as the status and the result show it: what happened, never a request value. */
export function ambiguityOf(err: unknown): LastError {
  const described = describeFailure(err);
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  const what =
    cause instanceof TimeoutFailure
      ? `the call did not finish within its ${String(cause.timeoutType ?? 'activity')
          .replace(/_/g, '-')
          .toLowerCase()} timeout (a stalled call or a lost worker)`
      : described.message;
  return { type: FailureType.AmbiguousOutcome, message: `v1 creation outcome unknown: ${what}` };
}

export interface V1ReviewContext {
  review: CreationReview;
  stage: Pick<StageTracker, 'enter'>;
  progress: ProgressReport;
  reviewDeadlineSeconds: number;
  stopped: () => boolean;
  /** The ambiguity, for the status and the result; undefined once a decision settled it. */
  report: (error: LastError | undefined) => void;
  /** The retry window from the first refusal. */
  retryWindowSeconds: number;
}

/**
 * v1 creation at most once (docs/developing/service-calls.md): an ambiguous outcome is never retried automatically. The
 * workflow enters `needs-review` and a person decides: retry (accepting that a duplicate may be created), record the
 * verification id found at the service, or abandon; no decision by the deadline ends it as `timed-out`.
 */
export async function createV1AtMostOnce(request: VerificationRequestV1, ctx: V1ReviewContext): Promise<V1Creation> {
  for (;;) {
    const attempt = await createOnce(request, ctx.progress, ctx.retryWindowSeconds);
    if (attempt.kind !== 'ambiguous') {
      if (attempt.kind === 'created') ctx.report(undefined);
      return attempt;
    }
    const ambiguity = ambiguityOf(attempt.failure);
    ctx.report(ambiguity);
    ctx.stage.enter('needs-review');
    const decision = await ctx.review.decide(ambiguity.message, ctx.reviewDeadlineSeconds, ctx.stopped);
    if (decision === 'stopped') return { kind: 'closed', outcome: 'cancelled' };
    if (decision === 'timed-out') return { kind: 'closed', outcome: 'timed-out' };
    if (decision.action === 'abandon') return { kind: 'closed', outcome: 'abandoned' };
    if (decision.action === 'record') {
      ctx.report(undefined);
      return { kind: 'created', verificationId: decision.verificationId };
    }
    ctx.stage.enter('creating');
  }
}
