import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { BatchMemo, ResubmitAnswer, ResubmitRequest } from './batch-types.js';
import type { PageReport } from './page-types.js';

// Messages of batches and their pages (docs/integrating/batches.md), defined once for the workflows and every client.

/** The batch to one of its pages: start your items now. */
export const releasePageSignal = defineSignal('releasePage');
/** The batch to a page not yet released: the batch was cancelled, start nothing. */
export const stopPageSignal = defineSignal('stopPage');
/** A page to its batch: its items are started (or it was stopped). */
export const pageReportSignal = defineSignal<[PageReport]>('pageReport');

/**
 * Start again the items whose latest attempt ended in one of `outcomes`. The validator refuses unknown outcomes and a
 * cancelled batch before anything is recorded; a request based on a round that has since been resubmitted starts
 * nothing (`accepted: false`), so a repeated request never starts an item twice.
 */
export const resubmitUpdate = defineUpdate<ResubmitAnswer, [ResubmitRequest]>('resubmit');
/** Cancel the batch: pages not yet released start nothing, running items get the `cancel` signal. */
export const cancelBatchUpdate = defineUpdate<BatchMemo, []>('cancelBatch');

/** What the memo shows, fresh (a query is a billed action: followers read the memo instead). */
export const batchStatusQuery = defineQuery<BatchMemo>('batchStatus');
