import type {
  PageStartResult,
  ResubmitItemsInput,
  ResubmittedItem,
  StartBatchItemsInput,
  VisibleItemCounts,
} from '../shared/batch-types.js';

/**
 * What batches ask of Temporal itself, run as local activities. The workflows own this port and
 * `activities/batch/` implements it, so those activities can start verification workflows without a cycle.
 */
export interface BatchActivities {
  startBatchItems: (input: StartBatchItemsInput) => Promise<PageStartResult>;
  countBatchItems: (batchId: string) => Promise<VisibleItemCounts>;
  resubmitBatchItems: (input: ResubmitItemsInput) => Promise<ResubmittedItem[]>;
  cancelBatchItems: (batchId: string) => Promise<number>;
  batchExists: (batchId: string) => Promise<boolean>;
}
