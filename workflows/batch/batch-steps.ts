import { condition, getExternalWorkflowHandle, proxyActivities, sleep } from '@temporalio/workflow';
import { ms } from '../shared/timing.js';
import type { BatchActivities } from './activities.js';
import { batchActivityOptions } from './batch-activity-options.js';
import type { BatchBook } from './batch-book.js';
import { batchPageWorkflowId } from './ids.js';
import { releasePageSignal, stopPageSignal } from './messages.js';
import type { BatchTiming } from './timing.js';

const { resubmitBatchItems, cancelBatchItems } = proxyActivities<BatchActivities>(batchActivityOptions);

/** Items started again per activity: a few hundred starts fit its timeout with room to spare. */
const RESUBMIT_CHUNK = 200;

/** Releases pages in order while fewer than `pagesInFlight` are starting their items. */
export async function releasePages(batchId: string, book: BatchBook, timing: BatchTiming): Promise<void> {
  while (book.released < book.pages && book.inFlight < timing.pagesInFlight) {
    const page = book.released + 1;
    book.released = page;
    try {
      await getExternalWorkflowHandle(batchPageWorkflowId(batchId, page)).signal(releasePageSignal);
    } catch {
      // The page no longer exists (terminated by hand): its items cannot start.
      book.pageLost(page);
    }
  }
}

/** Starts again, chunk by chunk, the items the pending round takes up; each one's new attempt is recorded at once. */
export async function resubmitRound(batchId: string, book: BatchBook): Promise<void> {
  for (;;) {
    const pending = book.pendingRound;
    if (!pending || book.cancelRequested) break;
    const items = await resubmitBatchItems({
      batchId,
      round: pending.round,
      outcomes: pending.outcomes,
      latest: book.latest,
      limit: RESUBMIT_CHUNK,
    });
    book.resubmitted(items);
    if (items.length < RESUBMIT_CHUNK) break;
  }
  book.resubmissionDone();
}

/**
 * Stops the pages not yet released, waits for the released ones to finish starting, then cancels every running item;
 * a second sweep a moment later catches the starts visibility had not shown yet.
 */
export async function cancelItems(batchId: string, book: BatchBook, timing: BatchTiming): Promise<void> {
  for (const page of book.skipUnreleased()) {
    try {
      await getExternalWorkflowHandle(batchPageWorkflowId(batchId, page)).signal(stopPageSignal);
    } catch {
      // Gone already: it starts nothing either way.
    }
  }
  await condition(() => book.inFlight === 0);
  await cancelBatchItems(batchId);
  await sleep(ms(timing.cancelSweepSeconds));
  await cancelBatchItems(batchId);
  book.cancelSwept = true;
}
