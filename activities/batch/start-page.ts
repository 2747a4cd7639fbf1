import { Context } from '@temporalio/activity';
import { inLanes } from '../../src/batches/lanes.js';
import { recordBatchItems } from '../../src/metrics/project-metrics.js';
import { batchItemWorkflowId, type PageStartResult, type StartBatchItemsInput } from '../../workflows/batch/batch.js';
import { namedWeight } from '../../workflows/shared/priority.js';
import { START_LANES, startItem, type ItemStarter, type StartItemResult } from './start-items.js';

/**
 * How often a page's start records its progress. The heartbeat timeout (workflows/batch/batch-activity-options.ts) is
 * three times this, and the SDK sends at most one heartbeat per 80% of it: a page started within this long sends none.
 */
const PROGRESS_EVERY_MS = 10_000;

/** What an attempt hands the next in its heartbeat: the rows it has done and what became of them. */
export interface PageProgress {
  done: number[];
  result: PageStartResult;
}

/**
 * The `startBatchItems` activity: a page's items, round 0, at the worker's start pace (`StartPace`), `START_LANES` at a
 * time. A retry (the worker died, the attempt timed out) skips the rows its predecessor's last heartbeat names; a row
 * started after that heartbeat is found under its derived id and counted as started, never as a duplicate.
 */
export async function startPageItems(starter: ItemStarter, input: StartBatchItemsInput): Promise<PageStartResult> {
  const context = Context.current();
  const progress = resumed(context.info.heartbeatDetails);
  const done = new Set(progress.done);
  const { tenant, retryWindowSeconds, timing } = input.options;
  const weight = namedWeight(tenant, starter.tenantWeights) ?? 1;
  const ticker = setInterval(() => context.heartbeat(progress), PROGRESS_EVERY_MS);
  try {
    await inLanes(
      input.items.filter(({ row }) => !done.has(row)),
      START_LANES,
      async ({ row, request }) => {
        await starter.startPace?.take(tenant, weight);
        // A cancelled attempt (its heartbeat timed out, its worker is shutting down) starts nothing more.
        context.cancellationSignal.throwIfAborted();
        const item = { batchId: input.batchId, row, round: 0 };
        const outcome = await startItem(starter, item, {
          request,
          retryWindowSeconds,
          ...(tenant ? { tenant } : {}),
          ...(timing ? { timing } : {}),
        });
        record(progress, row, outcome, batchItemWorkflowId(input.batchId, row, request.id, 0));
      },
    );
  } catch (err) {
    // The failure carries the last heartbeat's details to the next attempt: the rows done until now.
    context.heartbeat(progress);
    throw err;
  } finally {
    clearInterval(ticker);
  }
  const { result } = progress;
  result.duplicates.sort((a, b) => a.row - b.row);
  result.notStarted.sort((a, b) => a.row - b.row);
  return result;
}

function record(progress: PageProgress, row: number, outcome: StartItemResult, workflowId: string): void {
  const { result } = progress;
  progress.done.push(row);
  if (outcome === 'started') result.started += 1;
  else if (outcome === 'duplicate') result.duplicates.push({ row, workflowId });
  else result.notStarted.push({ row, ...outcome });
  recordBatchItems({
    started: outcome === 'started' ? 1 : 0,
    duplicates: outcome === 'duplicate' ? 1 : 0,
    notStarted: typeof outcome === 'object' ? 1 : 0,
  });
}

/** The progress an earlier attempt's heartbeat carried, or none (a first attempt). */
function resumed(details: unknown): PageProgress {
  const progress = details as Partial<PageProgress> | undefined;
  if (Array.isArray(progress?.done) && progress.result) return { done: progress.done, result: progress.result };
  return { done: [], result: { started: 0, duplicates: [], notStarted: [] } };
}
