import { condition, getExternalWorkflowHandle, proxyActivities, setHandler } from '@temporalio/workflow';
import type { BatchActivities } from './activities.js';
import { batchActivityOptions, pageStartOptions } from './batch-activity-options.js';
import { batchWorkflowId } from './ids.js';
import { pageReportSignal, releasePageSignal, stopPageSignal } from './messages.js';
import type { BatchPageInput, BatchPageResult, PageReport } from './page-types.js';
import { DEFAULT_BATCH_TIMING } from './timing.js';
import { ms } from '../shared/timing.js';

const { startBatchItems } = proxyActivities<BatchActivities>(pageStartOptions);
const { batchExists } = proxyActivities<BatchActivities>(batchActivityOptions);

/**
 * One page of a batch: its rows live in this workflow's input, durable before the submitter is answered (a batch's
 * 10,000 requests do not fit one 2 MB payload). The page waits for its batch to release it, starts its items in one
 * activity, and reports counts to the batch. The submitter starts the batch only after every page exists; a page
 * whose batch never came (the submitter died half-way) ends unreleased, having started nothing.
 */
export async function batchPageWorkflow(input: BatchPageInput): Promise<BatchPageResult> {
  let released = false;
  let stopped = false;
  setHandler(releasePageSignal, () => void (released = true));
  setHandler(stopPageSignal, () => void (stopped = true));

  const waitSeconds = input.releaseWithinSeconds ?? DEFAULT_BATCH_TIMING.releaseWithinSeconds;
  if (!(await condition(() => released || stopped, ms(waitSeconds)))) {
    // A batch that exists releases its pages in turn, which may take hours for a large one behind a rate limit.
    if (!(await batchExists(input.batchId))) return unstarted(input, 'unreleased');
    await condition(() => released || stopped);
  }
  // A stopped page's rows are counted as skipped by the batch that stopped it: no report needed.
  if (stopped) return unstarted(input, 'stopped');

  const { batchId, page, items, options } = input;
  const result = await startBatchItems({ batchId, page, items, options });
  await report(batchId, {
    page,
    started: result.started,
    duplicates: result.duplicates.length,
    notStarted: result.notStarted.length,
  });
  return { page, outcome: 'started', invalid: input.invalid, skipped: [], ...result };
}

function unstarted(input: BatchPageInput, outcome: 'stopped' | 'unreleased'): BatchPageResult {
  const skipped = input.items.map((item) => item.row);
  return { page: input.page, outcome, invalid: input.invalid, skipped, started: 0, duplicates: [], notStarted: [] };
}

/** A batch that is gone (terminated) cannot be told; the page's own result still says what it did. */
async function report(batchId: string, pageReport: PageReport): Promise<void> {
  try {
    await getExternalWorkflowHandle(batchWorkflowId(batchId)).signal(pageReportSignal, pageReport);
  } catch {
    // ExternalWorkflowExecutionSignalFailed: nothing waits for this report any more.
  }
}
