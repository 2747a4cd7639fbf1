import type { WorkflowExecutionInfo } from '@temporalio/client';
import type { ResubmitItemsInput, ResubmittedItem } from '../../workflows/batch/batch.js';
import type { ItemOutcome } from '../../workflows/shared/stages.js';
import type { VerificationWorkflowInput } from '../../workflows/verification/verification.js';
import { itemMemo, itemState, itemsQuery, outcomesCondition } from '../../src/batches/item-state.js';
import { inLanes } from '../../src/batches/lanes.js';
import { startInput } from '../../src/batches/start-input.js';
import { startItem, type ItemStarter } from './start-items.js';

/**
 * The `resubmitBatchItems` activity: starts round `round` of up to `limit` items whose latest attempt ended in one of
 * `outcomes`, each with the request its last attempt held, and says which rows it took (and how their attempt ended).
 * An attempt is an item's latest when its round is the one the batch recorded for its row (`latest`, 0 when absent);
 * attempts of this round are never taken up, so a retried activity starts nothing twice: the derived ids repeat.
 */
export async function resubmitItems(starter: ItemStarter, input: ResubmitItemsInput): Promise<ResubmittedItem[]> {
  const taken: { info: WorkflowExecutionInfo; row: number; from: ItemOutcome }[] = [];
  const query = itemsQuery(input.batchId, outcomesCondition(input.outcomes));
  for await (const info of starter.client.workflow.list({ query, pageSize: 500 })) {
    const memo = itemMemo(info);
    const state = itemState(info);
    if (!memo || memo.batchId !== input.batchId || state.running) continue;
    if (memo.round >= input.round || memo.round !== (input.latest[String(memo.row)] ?? 0)) continue;
    if (!(input.outcomes as readonly ItemOutcome[]).includes(state.outcome)) continue;
    taken.push({ info, row: memo.row, from: state.outcome });
    if (taken.length >= input.limit) break;
  }
  const started = await inLanes(taken, 8, async ({ info, row }) => {
    const last = await startInput<VerificationWorkflowInput>(starter.client, info.workflowId, info.runId);
    const outcome = await startItem(starter, { batchId: input.batchId, row, round: input.round }, last);
    // The same request started before; only a limit tightened since could refuse it now: that row stays as it was.
    return outcome === 'started';
  });
  return taken.filter((_, i) => started[i]).map(({ row, from }) => ({ row, from }));
}
