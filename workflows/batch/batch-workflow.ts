import { proxyActivities, setHandler } from '@temporalio/workflow';
import { shouldContinueAsNew } from '../shared/continue-as-new.js';
import type { BatchActivities } from './activities.js';
import { batchActivityOptions } from './batch-activity-options.js';
import { BatchRecord } from './batch-record.js';
import { cancelItems, releasePages, resubmitRound } from './batch-steps.js';
import type { BatchResult, BatchWorkflowInput, ResubmitRequest } from './batch-types.js';
import { batchStatusQuery, cancelBatchUpdate, pageReportSignal, resubmitUpdate } from './messages.js';

const { countBatchItems } = proxyActivities<BatchActivities>(batchActivityOptions);

/**
 * A batch (docs/integrating/batches.md): releases its pages a few at a time (each starts its own items), follows its
 * items' counts in visibility with growing intervals, publishes them in its memo (followers describe it, which is free;
 * no query, no per-item message), resubmits the items of a round and cancels on request, and stays open for
 * resubmissions a while after every item has closed. Its state is small whatever the batch's size (the rows live in the
 * pages), and it continues as new before its history grows long.
 */
export async function batchWorkflow(input: BatchWorkflowInput): Promise<BatchResult> {
  const { batchId } = input;
  const batch = new BatchRecord(input);
  const { book, timing } = batch;
  setHandler(pageReportSignal, (report) => book.pageReported(report));
  setHandler(batchStatusQuery, () => batch.memo());
  setHandler(cancelBatchUpdate, () => batch.cancel(), { validator: () => book.assertCancellable() });
  setHandler(resubmitUpdate, (request) => batch.resubmit(request), {
    validator: (request: ResubmitRequest) => book.assertResubmittable(request),
  });

  for (;;) {
    if (book.cancelRequested) {
      if (!book.cancelSwept) await cancelItems(batchId, book, timing);
    } else {
      await releasePages(batchId, book, timing);
      if (book.pendingRound) await resubmitRound(batchId, book);
    }
    batch.looked(await countBatchItems(batchId));
    if (book.allClosed()) {
      if (book.cancelRequested || !(await batch.keptOpen())) break;
      continue;
    }
    if (shouldContinueAsNew(timing.continueAfterEvents)) await batch.continueAsNew();
    await batch.nextLook();
  }
  return batch.finish();
}
