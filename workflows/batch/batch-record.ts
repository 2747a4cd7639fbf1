import { allHandlersFinished, condition, makeContinueAsNewFunc, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { VisibleItemCounts } from '../shared/batch-counts.js';
import { ON_CURRENT_VERSION } from '../shared/continue-as-new.js';
import { EventEmitter } from '../shared/event-emitter.js';
import { ms } from '../shared/timing.js';
import { BatchBook } from './batch-book.js';
import { announceBatch } from './batch-events.js';
import {
  BATCH_MEMO_KEY,
  BATCH_STATE_TABLE,
  type BatchMemo,
  type BatchResult,
  type BatchWorkflowInput,
  type ResubmitAnswer,
  type ResubmitRequest,
} from './batch-types.js';
import { resolveBatchTiming, type BatchTiming } from './timing.js';

const nowIso = () => new Date().toISOString();

/**
 * A running batch as its followers see it: the bookkeeping (`BatchBook`), the memo it publishes, its events, and when
 * it looks at its items next. The workflow's handlers and its loop call these methods; the workflow reads as the steps.
 */
export class BatchRecord {
  readonly timing: BatchTiming;
  readonly book: BatchBook;
  private readonly events: EventEmitter;
  /** Set once every item has closed: the batch completes then unless a resubmission comes first. */
  private closesAt: string | undefined;
  private published = '';

  constructor(private readonly input: BatchWorkflowInput) {
    this.timing = resolveBatchTiming(input.timing);
    this.book = new BatchBook(input, this.timing.pollInitialSeconds);
    this.events = new EventEmitter(input.tenant);
  }

  memo(): BatchMemo {
    return this.book.memo(this.closesAt);
  }

  /** The `cancelBatch` update: recorded and published before it is answered. */
  cancel(): BatchMemo {
    this.book.requestCancel();
    this.publish();
    return this.memo();
  }

  /** The `resubmit` update: a round opened (or refused as a repeat), published before it is answered. */
  resubmit(request: ResubmitRequest): ResubmitAnswer {
    const answer = this.book.requestResubmission(request, nowIso());
    this.publish();
    return answer;
  }

  /**
   * A look at the items' counts: published, announced, and the interval to the next look. Items on their way change
   * soon, so they are looked at often (a long interval leaves followers a picture minutes old); settled ones wait for
   * people or grace periods, and are looked at rarely.
   */
  looked(visible: VisibleItemCounts): void {
    this.book.visible = visible;
    this.closesAt = undefined;
    const changed = this.publish();
    announceBatch(this.input.batchId, this.book, this.events);
    const longest = BATCH_STATE_TABLE[this.book.phase()].busy
      ? this.timing.pollBusyMaxSeconds
      : this.timing.pollMaxSeconds;
    this.book.pollSeconds = changed ? this.timing.pollInitialSeconds : Math.min(longest, this.book.pollSeconds * 2);
  }

  /** Open for resubmissions a while, nothing polled (one timer): true when a message came, false once time is up. */
  async keptOpen(): Promise<boolean> {
    this.closesAt = new Date(Date.now() + this.timing.keepOpenSeconds * 1000).toISOString();
    this.publish();
    return this.woken(this.timing.keepOpenSeconds);
  }

  /** Until the next look is due; a message (a page's report, a cancel, a resubmission) makes it due at once. */
  async nextLook(): Promise<void> {
    await this.woken(this.book.pollSeconds);
  }

  /** The memo and search attributes go on explicitly: followers read the memo of whichever run is current. */
  async continueAsNew(): Promise<never> {
    await condition(allHandlersFinished);
    // A signal the server has not sent yet is dropped once its sender's run has closed.
    await this.events.kept();
    const next = makeContinueAsNewFunc<(input: BatchWorkflowInput) => Promise<BatchResult>>({
      ...ON_CURRENT_VERSION,
      memo: { [BATCH_MEMO_KEY]: this.book.memo() },
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
    });
    return next({ ...this.input, carried: this.book.carry() });
  }

  async finish(): Promise<BatchResult> {
    await condition(allHandlersFinished);
    this.publish();
    announceBatch(this.input.batchId, this.book, this.events);
    await this.events.kept();
    const { book } = this;
    return { phase: book.cancelRequested ? 'cancelled' : 'finished', counts: book.counts(), round: book.round };
  }

  /** Publishes the memo when it changed (each upsert is a billed action); its time becomes `updatedAt`. */
  private publish(): boolean {
    const { updatedAt: _u, ...content } = this.memo();
    const key = JSON.stringify(content);
    if (key === this.published) return false;
    this.published = key;
    this.book.updatedAt = nowIso();
    upsertMemo({ [BATCH_MEMO_KEY]: { ...this.memo(), updatedAt: this.book.updatedAt } });
    return true;
  }

  private async woken(seconds: number): Promise<boolean> {
    const woken = await condition(() => this.book.wake, ms(seconds));
    this.book.wake = false;
    return woken;
  }
}
