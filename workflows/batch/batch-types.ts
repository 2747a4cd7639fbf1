import type { BatchCounts, VisibleItemCounts } from '../shared/batch-counts.js';
import type { ItemOutcome, ResubmittableOutcome } from '../shared/stages.js';
import type { BatchTiming } from './timing.js';

/**
 * Every state a batch is seen in, and what each allows: one table for the workflow, the API, the CLI and the console.
 * The first six are the phases of a running batch workflow; the last three say how its workflow closed.
 * - `starting`: pages are still starting their items;
 * - `running`: some items are still on their way (queued, validating, awaiting a discovery, creating);
 * - `settled`: nothing is on its way; items may still wait for a person or for their grace period;
 * - `finished`: every item has closed; the batch stays open for resubmissions until `closesAt`;
 * - `cancelling` / `cancelled`;
 * - `closed` (its time for resubmissions is over), `terminated`, `failed`.
 */
export const BATCH_STATE_TABLE = {
  starting: { phase: true, busy: true, settled: false, cancellable: true, resubmittable: true },
  running: { phase: true, busy: true, settled: false, cancellable: true, resubmittable: true },
  settled: { phase: true, busy: false, settled: true, cancellable: true, resubmittable: true },
  // A finished batch only waits to close: nothing is left to cancel.
  finished: { phase: true, busy: false, settled: true, cancellable: false, resubmittable: true },
  cancelling: { phase: true, busy: true, settled: false, cancellable: false, resubmittable: false },
  cancelled: { phase: true, busy: false, settled: true, cancellable: false, resubmittable: false },
  closed: { phase: false, busy: false, settled: true, cancellable: false, resubmittable: false },
  terminated: { phase: false, busy: false, settled: true, cancellable: false, resubmittable: false },
  failed: { phase: false, busy: false, settled: true, cancellable: false, resubmittable: false },
} as const satisfies Record<
  string,
  { phase: boolean; busy: boolean; settled: boolean; cancellable: boolean; resubmittable: boolean }
>;
export type BatchState = keyof typeof BATCH_STATE_TABLE;
export type BatchPhase = {
  [S in BatchState]: (typeof BATCH_STATE_TABLE)[S]['phase'] extends true ? S : never;
}[BatchState];

export interface Resubmission {
  round: number;
  outcomes: ResubmittableOutcome[];
  /** ISO 8601. */
  requestedAt: string;
  /** Items started again so far. */
  resubmitted: number;
  done: boolean;
}

/**
 * What the batch publishes in its memo (`batch`), read with a describe, which is free: followers never query it.
 * Identifiers and counts only.
 */
export interface BatchMemo extends BatchAbout {
  batchId: string;
  phase: BatchPhase;
  counts: BatchCounts;
  pages: number;
  tenant?: string;
  retryWindowSeconds: number;
  /** ISO 8601: when the batch was submitted. */
  createdAt: string;
  /** ISO 8601: when its counts or phase last changed. */
  updatedAt: string;
  /** Resubmission rounds so far; a resubmission names the round it builds on. */
  round: number;
  lastResubmission?: Resubmission;
  /** ISO 8601, once every item has closed: the batch completes then unless a resubmission comes first. */
  closesAt?: string;
}

/** State a batch carries across continue-as-new. */
export interface BatchCarried {
  released: number;
  reported: number[];
  started: number;
  duplicate: number;
  notStarted: number;
  skipped: number;
  round: number;
  /** Row -> the round of its latest attempt, for rows resubmitted at least once. */
  latest: Record<string, number>;
  /** Closed attempts replaced by a resubmission, by outcome: visibility still counts them. */
  superseded: Partial<Record<ItemOutcome, number>>;
  pendingRound?: Resubmission;
  lastResubmission?: Resubmission;
  cancelRequested: boolean;
  cancelSwept: boolean;
  visible?: VisibleItemCounts;
  pollSeconds: number;
  updatedAt: string;
  /** The rounds whose `batch.settled` and `batch.finished` events were emitted (docs/integrating/events.md). */
  announced?: BatchAnnounced;
}

/** The last resubmission round each batch event was emitted for: a round that settles again tells it again. */
export interface BatchAnnounced {
  settled?: number;
  finished?: number;
}

/**
 * How people tell batches apart: a label (caller text, e.g. the file's name; kept in the memo, never in a search
 * attribute) and who submitted it (`client:<id>`, `api-key`, `cli:<name>`).
 */
export interface BatchAbout {
  label?: string;
  submittedBy?: string;
}

export interface BatchWorkflowInput extends BatchAbout {
  batchId: string;
  /** ISO 8601, set by the submitter. */
  createdAt: string;
  /** Valid rows per page, page 1 first. */
  pageItems: number[];
  invalid: number;
  tenant?: string;
  retryWindowSeconds: number;
  timing?: Partial<BatchTiming>;
  carried?: BatchCarried;
}

export interface BatchResult {
  phase: 'finished' | 'cancelled';
  counts: BatchCounts;
  round: number;
}

/** A resubmission request: the outcomes to take up again, and the round the caller saw (it makes retries no-ops). */
export interface ResubmitRequest {
  outcomes: ResubmittableOutcome[];
  basedOnRound: number;
}

export interface ResubmitAnswer {
  round: number;
  /** false when the round asked for was resubmitted already: nothing new was started. */
  accepted: boolean;
}

export interface ResubmitItemsInput {
  batchId: string;
  round: number;
  outcomes: ResubmittableOutcome[];
  latest: Record<string, number>;
  limit: number;
}

export interface ResubmittedItem {
  row: number;
  /** How the attempt it replaces ended. */
  from: ItemOutcome;
}

/** The memo key under which a batch publishes its `BatchMemo`. */
export const BATCH_MEMO_KEY = 'batch';
