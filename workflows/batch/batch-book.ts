import { ApplicationFailure } from '@temporalio/workflow';
import { FailureType } from '../shared/failure-types.js';
import type { BatchCounts, VisibleItemCounts } from '../shared/batch-counts.js';
import type {
  BatchAnnounced,
  BatchCarried,
  BatchMemo,
  BatchPhase,
  BatchWorkflowInput,
  ResubmitAnswer,
  ResubmitRequest,
  ResubmittedItem,
} from './batch-types.js';
import type { PageReport } from './page-types.js';
import {
  ITEM_OUTCOMES,
  ON_THEIR_WAY,
  RESUBMITTABLE_OUTCOMES,
  RUNNING_STAGES,
  type ItemOutcome,
} from '../shared/stages.js';

const zeros = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

/**
 * The bookkeeping of a batch, apart from the workflow's wiring: pages released and reported, items started, the
 * resubmission rounds (each row's latest attempt, the attempts they replaced), and the counts derived from visibility.
 * Everything it holds is carried across continue-as-new.
 */
export class BatchBook {
  readonly pageItems: readonly number[];
  readonly items: number;
  released: number;
  readonly reported: Set<number>;
  started: number;
  duplicate: number;
  notStarted: number;
  skipped: number;
  round: number;
  latest: Record<string, number>;
  superseded: Partial<Record<ItemOutcome, number>>;
  pendingRound: BatchCarried['pendingRound'];
  lastResubmission: BatchCarried['lastResubmission'];
  cancelRequested: boolean;
  cancelSwept: boolean;
  visible: VisibleItemCounts | undefined;
  pollSeconds: number;
  updatedAt: string;
  announced: BatchAnnounced;
  /** Set by the message handlers: the main loop looks again at once instead of waiting out its interval. */
  wake = false;

  constructor(
    private readonly input: BatchWorkflowInput,
    pollSeconds: number,
  ) {
    this.pageItems = input.pageItems;
    this.items = input.pageItems.reduce((a, b) => a + b, 0);
    const c = input.carried;
    this.released = c?.released ?? 0;
    this.reported = new Set(c?.reported ?? []);
    this.started = c?.started ?? 0;
    this.duplicate = c?.duplicate ?? 0;
    this.notStarted = c?.notStarted ?? 0;
    this.skipped = c?.skipped ?? 0;
    this.round = c?.round ?? 0;
    this.latest = c?.latest ?? {};
    this.superseded = c?.superseded ?? {};
    this.pendingRound = c?.pendingRound;
    this.lastResubmission = c?.lastResubmission;
    this.cancelRequested = c?.cancelRequested ?? false;
    this.cancelSwept = c?.cancelSwept ?? false;
    this.visible = c?.visible;
    this.pollSeconds = c?.pollSeconds ?? pollSeconds;
    this.updatedAt = c?.updatedAt ?? input.createdAt;
    this.announced = c?.announced ?? {};
  }

  get pages(): number {
    return this.pageItems.length;
  }

  /** Pages released whose report has not come yet. */
  get inFlight(): number {
    return this.released - this.reported.size;
  }

  pageReported(report: PageReport): void {
    if (this.reported.has(report.page) || report.page > this.released) return;
    this.reported.add(report.page);
    this.started += report.started;
    this.duplicate += report.duplicates;
    this.notStarted += report.notStarted;
    this.wake = true;
  }

  /** A page that could not be released (it no longer exists): none of its items will start. */
  pageLost(page: number): void {
    this.reported.add(page);
    this.notStarted += this.pageItems[page - 1] ?? 0;
  }

  /** Pages `released + 1 ..` will never be released: their items are skipped. */
  skipUnreleased(): number[] {
    const pages: number[] = [];
    for (let page = this.released + 1; page <= this.pages; page += 1) {
      pages.push(page);
      this.skipped += this.pageItems[page - 1] ?? 0;
    }
    this.released = this.pages;
    for (const page of pages) this.reported.add(page);
    return pages;
  }

  counts(): BatchCounts {
    const running = { ...zeros(RUNNING_STAGES), ...this.visible?.running };
    const outcomes = zeros(ITEM_OUTCOMES);
    for (const outcome of ITEM_OUTCOMES) {
      // An attempt replaced by a resubmission stays in visibility; each item is counted once, by its latest attempt.
      outcomes[outcome] = Math.max(0, (this.visible?.outcomes[outcome] ?? 0) - (this.superseded[outcome] ?? 0));
    }
    const accounted = this.duplicate + this.notStarted + this.skipped + sum(running) + sum(outcomes);
    return {
      items: this.items,
      invalid: this.input.invalid,
      duplicate: this.duplicate,
      notStarted: this.notStarted,
      skipped: this.skipped,
      queued: Math.max(0, this.items - accounted),
      running,
      outcomes,
    };
  }

  /** Every item has closed (or will never start), and nothing is left to release, report or resubmit. */
  allClosed(): boolean {
    const counts = this.counts();
    return (
      this.released === this.pages &&
      this.inFlight === 0 &&
      this.pendingRound === undefined &&
      counts.queued === 0 &&
      sum(counts.running) === 0
    );
  }

  phase(): BatchPhase {
    if (this.cancelRequested) return this.allClosed() ? 'cancelled' : 'cancelling';
    if (this.released < this.pages || this.inFlight > 0) return 'starting';
    const counts = this.counts();
    const onTheirWay = counts.queued + ON_THEIR_WAY.reduce((n, stage) => n + counts.running[stage], 0);
    if (onTheirWay > 0 || this.pendingRound) return 'running';
    return sum(counts.running) > 0 ? 'settled' : 'finished';
  }

  memo(closesAt?: string): BatchMemo {
    return {
      batchId: this.input.batchId,
      // Only batches submitted with them have them: the memo of any other batch is as it always was.
      ...(this.input.label !== undefined ? { label: this.input.label } : {}),
      ...(this.input.submittedBy !== undefined ? { submittedBy: this.input.submittedBy } : {}),
      phase: this.phase(),
      counts: this.counts(),
      pages: this.pages,
      ...(this.input.tenant ? { tenant: this.input.tenant } : {}),
      retryWindowSeconds: this.input.retryWindowSeconds,
      createdAt: this.input.createdAt,
      updatedAt: this.updatedAt,
      round: this.round,
      ...(this.lastResubmission ? { lastResubmission: this.lastResubmission } : {}),
      ...(closesAt ? { closesAt } : {}),
    };
  }

  assertCancellable(): void {
    if (this.cancelRequested) throw refusal(FailureType.BatchCancelled, 'the batch is cancelled already');
  }

  requestCancel(): void {
    this.cancelRequested = true;
    // A round asked for but not started yet starts nothing now.
    if (this.pendingRound && this.pendingRound.resubmitted === 0) {
      this.lastResubmission = { ...this.pendingRound, done: true };
      this.pendingRound = undefined;
    }
    this.wake = true;
  }

  /** The update's validator: refuses before anything is recorded. */
  assertResubmittable(request: ResubmitRequest): void {
    if (this.cancelRequested) throw refusal(FailureType.BatchCancelled, 'the batch is cancelled: nothing starts again');
    const outcomes: unknown = request?.outcomes;
    if (!Array.isArray(outcomes) || outcomes.length === 0) {
      throw refusal(FailureType.InvalidRequest, 'outcomes: give at least one outcome', 'outcomes');
    }
    for (const outcome of outcomes) {
      if (!(RESUBMITTABLE_OUTCOMES as readonly unknown[]).includes(outcome)) {
        throw refusal(
          FailureType.InvalidRequest,
          `outcomes: expected ${RESUBMITTABLE_OUTCOMES.join(', ')}`,
          'outcomes',
        );
      }
    }
    if (!Number.isInteger(request.basedOnRound) || request.basedOnRound < 0) {
      throw refusal(FailureType.InvalidRequest, 'basedOnRound: expected a round number', 'basedOnRound');
    }
    // A new round of nothing would only announce the batch again; a repeat of a round taken is answered as one.
    const held = this.counts().outcomes;
    const isNew = request.basedOnRound === this.round && this.pendingRound === undefined;
    if (isNew && request.outcomes.every((outcome) => held[outcome] === 0)) {
      throw refusal(FailureType.NothingToResubmit, 'no item has these outcomes: nothing to resubmit', 'outcomes');
    }
  }

  /**
   * Opens round `round + 1` when the caller saw the current round: a repeated request (a retry, a double click) saw a
   * round that has moved on, and starts nothing. The counter is durable before the update is answered.
   */
  requestResubmission(request: ResubmitRequest, now: string): ResubmitAnswer {
    if (request.basedOnRound !== this.round || this.pendingRound) return { round: this.round, accepted: false };
    this.round += 1;
    this.pendingRound = {
      round: this.round,
      outcomes: [...new Set(request.outcomes)],
      requestedAt: now,
      resubmitted: 0,
      done: false,
    };
    this.lastResubmission = this.pendingRound;
    this.wake = true;
    return { round: this.round, accepted: true };
  }

  resubmitted(items: readonly ResubmittedItem[]): void {
    if (!this.pendingRound) return;
    for (const { row, from } of items) {
      this.latest[String(row)] = this.pendingRound.round;
      this.superseded[from] = (this.superseded[from] ?? 0) + 1;
    }
    this.pendingRound = { ...this.pendingRound, resubmitted: this.pendingRound.resubmitted + items.length };
    this.lastResubmission = this.pendingRound;
  }

  resubmissionDone(): void {
    if (!this.pendingRound) return;
    this.lastResubmission = { ...this.pendingRound, done: true };
    this.pendingRound = undefined;
  }

  carry(): BatchCarried {
    return {
      released: this.released,
      reported: [...this.reported],
      started: this.started,
      duplicate: this.duplicate,
      notStarted: this.notStarted,
      skipped: this.skipped,
      round: this.round,
      latest: this.latest,
      superseded: this.superseded,
      ...(this.pendingRound ? { pendingRound: this.pendingRound } : {}),
      ...(this.lastResubmission ? { lastResubmission: this.lastResubmission } : {}),
      cancelRequested: this.cancelRequested,
      cancelSwept: this.cancelSwept,
      announced: this.announced,
      ...(this.visible ? { visible: this.visible } : {}),
      pollSeconds: this.pollSeconds,
      updatedAt: this.updatedAt,
    };
  }
}

function refusal(type: string, message: string, param?: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true, details: [param ? { param } : {}] });
}
