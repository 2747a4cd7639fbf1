import type { VisibleItemCounts } from '../shared/batch-counts.js';
import type { ResubmitItemsInput, ResubmittedItem } from './batch-types.js';
import type { PageStartResult, StartBatchItemsInput } from './page-types.js';

/**
 * What batches ask of Temporal itself, never of the service. The workflows own this port and `activities/batch/`
 * implements it, so those activities can start verification workflows without a cycle. Every one is idempotent:
 * items have derived ids, so a retry, or a rerun after the worker died, starts nothing twice.
 */
export interface BatchActivities {
  /** A page's items at the start pace, heartbeating its progress: a retry resumes from the last heartbeat. */
  startBatchItems: (input: StartBatchItemsInput) => Promise<PageStartResult>;
  countBatchItems: (batchId: string) => Promise<VisibleItemCounts>;
  resubmitBatchItems: (input: ResubmitItemsInput) => Promise<ResubmittedItem[]>;
  cancelBatchItems: (batchId: string) => Promise<number>;
  batchExists: (batchId: string) => Promise<boolean>;
}
