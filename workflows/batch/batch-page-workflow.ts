import { condition, getExternalWorkflowHandle, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { BatchActivities } from './activities.js';
import { batchActivityOptions } from './batch-activity-options.js';
import { batchWorkflowId } from '../shared/batch-ids.js';
import { pageReportSignal, releasePageSignal, stopPageSignal } from '../shared/batch-messages.js';
import { DEFAULT_BATCH_TIMING } from '../shared/batch-timing.js';
import type { BatchPageInput, BatchPageResult, PageReport, PageStartResult } from '../shared/batch-types.js';
import { ms } from '../shared/timing.js';

const { startBatchItems, batchExists } = proxyLocalActivities<BatchActivities>(batchActivityOptions);

/**
 * One page of a batch: its rows live in this workflow's input, durable before the submitter is answered (a batch's
 * 10,000 requests do not fit one 2 MB payload). The page waits for its batch to release it, starts its items, and
 * reports counts to the batch. The submitter starts the batch only after every page exists; a page whose batch never
 * came (the submitter died half-way) ends unreleased, having started nothing.
 */
export async function batchPageWorkflow(input: BatchPageInput): Promise<BatchPageResult> {
  let released = false;
  let stopped = false;
  setHandler(releasePageSignal, () => void (released = true));
  setHandler(stopPageSignal, () => void (stopped = true));
  const rows = input.items.map((item) => item.row);
  const unstarted = (outcome: 'stopped' | 'unreleased'): BatchPageResult => ({
    page: input.page,
    outcome,
    invalid: input.invalid,
    skipped: rows,
    started: 0,
    duplicates: [],
    notStarted: [],
  });

  const waitSeconds = input.releaseWithinSeconds ?? DEFAULT_BATCH_TIMING.releaseWithinSeconds;
  if (!(await condition(() => released || stopped, ms(waitSeconds)))) {
    // A batch that exists releases its pages in turn, which may take hours for a large one behind a rate limit.
    if (!(await batchExists(input.batchId))) return unstarted('unreleased');
    await condition(() => released || stopped);
  }
  // A stopped page's rows are counted as skipped by the batch that stopped it: no report needed.
  if (stopped) return unstarted('stopped');
  const batch = getExternalWorkflowHandle(batchWorkflowId(input.batchId));
  const result = await startItems(input);
  await report(batch, {
    page: input.page,
    started: result.started,
    duplicates: result.duplicates.length,
    notStarted: result.notStarted.length,
  });
  return { page: input.page, outcome: 'started', invalid: input.invalid, skipped: [], ...result };
}

/**
 * Starts the page's items, a time slice per call (activities/batch/start-items.ts), until it has taken them all. A call
 * recorded before slices existed took them all and says nothing of `handled`: the loop ends, as it did.
 */
async function startItems(input: BatchPageInput): Promise<PageStartResult> {
  const total: PageStartResult = { started: 0, duplicates: [], notStarted: [] };
  let handled = 0;
  while (handled < input.items.length) {
    const items = input.items.slice(handled);
    const slice = await startBatchItems({ batchId: input.batchId, page: input.page, items, options: input.options });
    total.started += slice.started;
    total.duplicates.push(...slice.duplicates);
    total.notStarted.push(...slice.notStarted);
    handled += slice.handled ?? items.length;
  }
  return total;
}

/** A batch that is gone (terminated) cannot be told; the page's own result still says what it did. */
async function report(batch: ReturnType<typeof getExternalWorkflowHandle>, pageReport: PageReport): Promise<void> {
  try {
    await batch.signal(pageReportSignal, pageReport);
  } catch {
    // ExternalWorkflowExecutionSignalFailed: nothing waits for this report any more.
  }
}
