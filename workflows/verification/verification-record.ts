import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { HandlerUnfinishedPolicy, type SearchAttributeUpdatePair } from '@temporalio/common';
import type { Discovery, VerificationIntake } from '../../src/contract/index.js';
import { DEFAULT_RETRY_WINDOW_SECONDS, type CallPolicy } from '../shared/activity-options.js';
import { FailureType } from '../shared/failure-types.js';
import { awaitSettledUpdate, cancelSignal, statusQuery } from './verification.js';
import { isSettled, type Outcome, type Stage } from '../shared/stages.js';
import { resolveTiming, type Timing } from '../shared/timing.js';
import type { LastError, VerificationResult, VerificationStatus, VerificationWorkflowInput } from './verification.js';
import { humanDuration } from '../shared/ui-text.js';
import { verificationDetails } from './current-details.js';
import { DiscoveryWait, summarizeDiscovery } from './discovery-wait.js';
import { describeFailure } from './failures.js';
import { guardIntake, type GuardResult } from './intake-guard.js';
import { Progress } from './progress.js';
import { CreationReview } from './review.js';
import { RunInputs } from './run-inputs.js';
import { SeenEvents } from './seen-events.js';
import { StageTracker } from './stage.js';
import type { StageEvents } from './stage-events.js';

/** Thrown by `finish` to end the verification from any step; the workflow function returns its result. */
export class VerificationEnded extends Error {
  constructor(readonly result: VerificationResult) {
    super(`verification ended: ${result.outcome}`);
  }
}

/**
 * A verification's record: its state, its handlers (status, settled, cancel; runs, review and discovery register
 * theirs), and what entering a stage does (the search attribute, the metric, the event, Temporal UI's details). The
 * workflow function is the script of its business steps; this is everything they leave behind.
 */
export class Verification {
  readonly timing: Timing;
  /** The retry window of its service calls, from a call's first failure (docs/developing/service-calls.md). */
  readonly policy: CallPolicy;
  /** Guarded before the handlers exist, so a query always sees it; only the guard's result is trusted. */
  readonly guarded: GuardResult;
  readonly progress: Progress;
  readonly discoveries: DiscoveryWait;
  readonly review: CreationReview;
  readonly runs: RunInputs;
  cancelled = false;
  verificationId: string | undefined;
  discovery: Discovery | undefined;
  lastError: LastError | undefined;
  private readonly stage: StageTracker;
  private readonly raw: { id?: unknown; version?: unknown } | undefined;

  constructor(
    readonly input: VerificationWorkflowInput,
    events: StageEvents,
  ) {
    this.timing = resolveTiming(input.timing);
    this.policy = { retryWindowSeconds: input.retryWindowSeconds ?? DEFAULT_RETRY_WINDOW_SECONDS };
    // Typed as validated, but a start that bypassed the edges may hold anything.
    this.raw = input.request;
    this.progress = new Progress((step) => verificationDetails(this.status(), step));
    this.stage = new StageTracker('validating', () => {
      this.progress.show();
      events.entered(this.status());
    });
    this.guarded = guardIntake(input.request);
    const seen = new SeenEvents();
    this.discoveries = new DiscoveryWait(this.request?.discoveryId, this.progress);
    this.review = new CreationReview(this.progress);
    this.runs = new RunInputs(() => this.runsChanged(), [], seen, this.progress);
    setHandler(cancelSignal, () => {
      this.cancelled = true;
    });
    setHandler(statusQuery, () => this.status());
    // Abandoned when the workflow closes first: closing is settling, and the caller then reads the closed status.
    setHandler(
      awaitSettledUpdate,
      async () => {
        await condition(() => isSettled(this.stage.stage));
        return this.status();
      },
      { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON },
    );
    this.progress.at({ doing: 'checking the request' });
  }

  get request(): VerificationIntake | undefined {
    return this.guarded.ok ? this.guarded.intake : undefined;
  }

  get stopped(): () => boolean {
    return () => this.cancelled;
  }

  enter(stage: Stage, also: SearchAttributeUpdatePair[] = []): void {
    this.stage.enter(stage, also);
  }

  /** Ends as cancelled if a cancel arrived while the last step ran. */
  stopIfCancelled(): void {
    if (this.cancelled) this.finish('cancelled');
  }

  /** A service call's step: Temporal retries it (each attempt shows on the pending activity) until the window ends. */
  calling(summary: string): void {
    const window = humanDuration(this.policy.retryWindowSeconds * 1000);
    this.progress.at({ doing: `${summary}; failures retried for ${window} after the first` });
  }

  status(): VerificationStatus {
    const { raw, request, discovery, verificationId } = this;
    const callerId = typeof raw?.id === 'string' ? raw.id : undefined;
    const lastError = this.currentError();
    return {
      stage: this.stage.stage,
      version: raw?.version === 'v1' ? 'v1' : 'v2',
      ...(callerId ? { callerId } : {}),
      ...(request ? { payerId: discovery?.payerId ?? request.payerId, discoveryId: request.discoveryId } : {}),
      ...(request?.version === 'v2' ? { specialtyCode: request.specialtyCode } : {}),
      ...(verificationId ? { verificationId } : {}),
      ...(discovery ? { discovery: summarizeDiscovery(discovery) } : {}),
      runs: this.runs.summaries,
      pendingRuns: this.runs.pending,
      ...(this.review.status ? { review: this.review.status } : {}),
      ...(lastError ? { lastError } : {}),
    };
  }

  /** Enters `outcome` and ends the verification with it (throws `VerificationEnded`). */
  finish(outcome: Outcome): never {
    throw new VerificationEnded(this.settle(outcome));
  }

  /** Ends the verification as failed: the failure names the field, and its details carry the result object. */
  fail(failure: ApplicationFailure): never {
    this.lastError = describeFailure(failure);
    const result = this.settle('failed');
    throw ApplicationFailure.create({
      type: failure.type ?? FailureType.InvalidRequest,
      message: failure.message,
      nonRetryable: true,
      details: [{ ...(this.lastError.param ? { param: this.lastError.param } : {}), result }],
    });
  }

  /** The result of a verification that settled on `outcome` (entered now). */
  settle(outcome: Outcome): VerificationResult {
    this.progress.at(undefined);
    this.stage.enter(outcome);
    const { request, verificationId, discovery } = this;
    const lastError = this.currentError();
    return {
      outcome,
      ...(request?.id ? { callerId: request.id } : {}),
      ...(verificationId ? { verificationId } : {}),
      ...(discovery ? { discovery: { ...summarizeDiscovery(discovery), memberId: discovery.memberId } } : {}),
      runs: this.runs.summaries,
      ...(lastError ? { lastError } : {}),
    };
  }

  private currentError(): LastError | undefined {
    return this.runs.lastError ?? this.review.rejection ?? this.lastError;
  }

  private runsChanged(): void {
    const { stage } = this.stage;
    if (this.runs.pending.length > 0 && (stage === 'created' || stage === 'awaiting-input')) {
      this.stage.enter('awaiting-input');
    }
  }
}
