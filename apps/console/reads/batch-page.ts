import type { Client } from '@temporalio/client';
import type { BatchView } from '../../../src/batches/describe.js';
import { latestAttempts, type BatchItemView } from '../../../src/batches/items.js';
import { inLanes } from '../../../src/batches/lanes.js';
import { startInput } from '../../../src/batches/start-input.js';
import {
  type BatchPageInput,
  type BatchPageResult,
  batchPageWorkflowId,
  type BatchRowProblem,
} from '../../../workflows/batch/batch.js';
import { cannotSucceed, closedErrorOf } from './closed-errors.js';

/** What the batch's page shows besides its progress: every row's latest attempt in row order, and the invalid rows. */
export interface BatchRows {
  items: BatchItemView[];
  invalid: BatchRowProblem[];
}

/** The rows refused at submission, with the field and the reason (never a value), from each page's input or result. */
async function invalidRows(client: Client, batchId: string, pages: number): Promise<BatchRowProblem[]> {
  const perPage = await inLanes(
    Array.from({ length: pages }, (_, i) => i + 1),
    4,
    async (page) => {
      const handle = client.workflow.getHandle(batchPageWorkflowId(batchId, page));
      const described = await handle.describe();
      if (described.status.name === 'COMPLETED') return ((await handle.result()) as BatchPageResult).invalid;
      return (await startInput<BatchPageInput>(client, described.workflowId, described.runId)).invalid;
    },
  );
  return perPage.flat().sort((a, b) => a.row - b.row);
}

export async function batchRows(client: Client, view: BatchView): Promise<BatchRows> {
  const [items, invalid] = await Promise.all([
    latestAttempts(client, view.batchId).then((attempts) => attempts.map((a) => a.view)),
    view.counts.invalid > 0 ? invalidRows(client, view.batchId, view.pages) : Promise.resolve([]),
  ]);
  return { items, invalid };
}

/**
 * How many of the failed items a resubmission would start only to fail again: their last error is one no retry fixes
 * (an unknown payer, a field the service refuses). Each closed item's ending is read once and kept.
 */
export async function hopelessFailures(client: Client, items: readonly BatchItemView[]): Promise<number> {
  const failed = items.filter((i) => i.outcome === 'failed');
  const endings = await inLanes(failed, 8, (item) => closedErrorOf(client, item.workflowId));
  return endings.filter(cannotSucceed).length;
}
