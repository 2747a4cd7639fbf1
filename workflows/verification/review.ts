import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { FailureType } from '../shared/failure-types.js';
import { describeFailure, invalidRequest } from './failures.js';
import { resolveReviewUpdate, reviewDecisionSignal } from './verification.js';
import { isPlainObject } from '../shared/plain-object.js';
import { quietProgress, type ProgressReport } from './progress.js';
import { timerSummary } from './summaries.js';
import { ms } from '../shared/timing.js';
import {
  REVIEW_ACTIONS,
  type LastError,
  type ReviewAnswer,
  type ReviewDecision,
  type ReviewStatus,
} from './verification.js';

/** The form of the service's verification ids (UUIDs), checked before an id a person recorded is trusted. */
const VERIFICATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ReviewOutcome = ReviewDecision | 'timed-out' | 'stopped';

/**
 * The `needs-review` stage: a person decides what happens to a v1 creation whose outcome is unknown, through the
 * `resolveReview` update (which answers the caller) or its `reviewDecision` signal twin for Temporal UI (whose
 * rejections land in `rejection`, shown as the status's last error). Handlers are set when the workflow starts, so a
 * decision is refused, not lost, when no review is open.
 */
export class CreationReview {
  private open: ReviewStatus | undefined;
  private decision: ReviewDecision | undefined;
  rejection: LastError | undefined;

  constructor(private readonly progress: ProgressReport = quietProgress) {
    setHandler(resolveReviewUpdate, (decision) => this.accept(decision), {
      // Runs before anything is written to history: a refused decision leaves no trace.
      validator: (decision: ReviewDecision) => this.validate(decision),
    });
    setHandler(reviewDecisionSignal, (decision) => {
      try {
        this.validate(decision);
        this.accept(decision);
      } catch (err) {
        this.rejection = describeFailure(err);
        this.progress.show();
      }
    });
  }

  get status(): ReviewStatus | undefined {
    return this.open && { ...this.open };
  }

  /** Opens the review and waits for a decision, the deadline, or `stopped`. */
  async decide(reason: string, deadlineSeconds: number, stopped: () => boolean): Promise<ReviewOutcome> {
    const now = Date.now();
    const decideBy = new Date(now + ms(deadlineSeconds)).toISOString();
    this.open = { reason, since: new Date(now).toISOString(), decideBy };
    this.decision = undefined;
    this.progress.at({
      doing: 'waiting for a person to decide: retry, record the verification id found, or abandon',
      until: now + ms(deadlineSeconds),
    });
    try {
      const decided = await condition(() => this.decision !== undefined || stopped(), ms(deadlineSeconds), {
        summary: timerSummary.reviewDeadline(ms(deadlineSeconds)),
      });
      if (stopped()) return 'stopped';
      return decided && this.decision ? this.decision : 'timed-out';
    } finally {
      this.open = undefined;
    }
  }

  private validate(decision: ReviewDecision): void {
    if (!this.open || this.decision) {
      throw ApplicationFailure.create({
        type: FailureType.NotAwaitingReview,
        message: 'this verification is not awaiting a review decision',
        nonRetryable: true,
      });
    }
    if (!isPlainObject(decision) || !REVIEW_ACTIONS.includes(decision.action)) {
      throw invalidRequest('action', 'expected retry, record or abandon');
    }
    if (decision.action === 'record' && !VERIFICATION_ID.test(String(decision.verificationId))) {
      throw invalidRequest('verificationId', 'expected the verification id (a UUID) found at the service');
    }
  }

  private accept(decision: ReviewDecision): ReviewAnswer {
    // Only what the workflow acts on is kept; the history holds the decision as the person sent it.
    this.decision =
      decision.action === 'record'
        ? { action: 'record', verificationId: decision.verificationId }
        : { action: decision.action };
    this.rejection = undefined;
    this.progress.show();
    return { accepted: decision.action };
  }
}
