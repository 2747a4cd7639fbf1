import type { VerificationIntake } from '../../src/contract/index.js';
import type { Timing } from '../shared/timing.js';

/** What every item of a batch carries into its verification's input and search attributes. */
export interface BatchItemOptions {
  /** The submitter's tenant (never PHI): a `Tenant` search attribute, for traffic governance. */
  tenant?: string;
  /**
   * How long a failing service is retried for this batch's items, from each call's first failure
   * (docs/developing/service-calls.md).
   */
  retryWindowSeconds: number;
  /** Waiting times of the items' verifications (tests and `npm start` shorten them). */
  timing?: Partial<Timing>;
}

export interface BatchRowRequest {
  /** 1-based row of the submission (a file's data row, a JSON body's item). */
  row: number;
  request: VerificationIntake;
}

/** A row that was not started, and why: the field at fault and what was expected, never the value. */
export interface BatchRowProblem {
  row: number;
  /** The file line where the row starts, when it came from a file. */
  line?: number;
  param: string;
  message: string;
  /** The row's caller id, when it gave a well-formed one: the results name the row as the caller knows it. */
  callerId?: string;
}

export interface BatchDuplicate {
  row: number;
  /** The verification its caller id already has (started elsewhere, or earlier): nothing new was started. */
  workflowId: string;
}

/** A page: at most a few hundred rows of one batch, held in the page workflow's input (Temporal's 2 MB per payload). */
export interface BatchPageInput {
  batchId: string;
  /** 1-based. */
  page: number;
  items: BatchRowRequest[];
  /** Rows of this page's range that were refused at submission (kept for the batch's results). */
  invalid: BatchRowProblem[];
  options: BatchItemOptions;
  releaseWithinSeconds?: number;
}

/** The `startBatchItems` activity's input: a page's rows and the options its items start with. */
export interface StartBatchItemsInput {
  batchId: string;
  page: number;
  items: BatchRowRequest[];
  options: BatchItemOptions;
}

/** What `startBatchItems` did with a page's items. */
export interface PageStartResult {
  started: number;
  duplicates: BatchDuplicate[];
  notStarted: BatchRowProblem[];
}

export type PageOutcome = 'started' | 'stopped' | 'unreleased';

export interface BatchPageResult extends PageStartResult {
  page: number;
  outcome: PageOutcome;
  invalid: BatchRowProblem[];
  /** Rows never started because the batch was cancelled (or never started) before this page was released. */
  skipped: number[];
}

/** A page's signal to its batch once it has started its items: counts only, no rows. */
export interface PageReport {
  page: number;
  started: number;
  duplicates: number;
  notStarted: number;
}

/** The memo key of a batch item's verification: which batch, row and round it is (read back by lists). */
export const BATCH_ITEM_MEMO_KEY = 'batchItem';

export interface BatchItemMemo {
  batchId: string;
  row: number;
  round: number;
  /** The row's caller id, when it gave one (an identifier, never patient data). */
  callerId?: string;
}
