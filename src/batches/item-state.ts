import type { WorkflowExecutionInfo } from '@temporalio/client';
import { BATCH_ITEM_MEMO_KEY, type BatchItemMemo } from '../../workflows/batch/batch.js';
import { isOutcome, isRunningStage, type ItemOutcome, type RunningStage } from '../../workflows/shared/stages.js';
import {
  completedUnindexed,
  howItEnded,
  STATUS_OF_OUTCOME,
  UNINDEXED_COMPLETION,
} from '../temporal/workflow-ending.js';
import { BatchId, VerificationStage } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import {
  and,
  is,
  isOneOf,
  ofType,
  or,
  withStatus,
  withStatusIn,
  type Condition,
} from '../temporal/visibility-query.js';

/** Where one item's verification stands, as visibility shows it: running at a stage, or closed with an outcome. */
export type ItemState = { running: true; stage: RunningStage } | { running: false; outcome: ItemOutcome };

/** The one reading of an item, shared by counts, lists, results and resubmission (`howItEnded` once it closed). */
export function itemState(info: Pick<WorkflowExecutionInfo, 'status' | 'typedSearchAttributes'>): ItemState {
  const stage = info.typedSearchAttributes.get(VerificationStage);
  if (info.status.name === 'RUNNING') return { running: true, stage: isRunningStage(stage) ? stage : 'validating' };
  return { running: false, outcome: howItEnded(info.status.name, stage) };
}

/** Which batch, row and round an item is (its memo, set at start); undefined for a verification of no batch. */
export function itemMemo(info: Pick<WorkflowExecutionInfo, 'memo'>): BatchItemMemo | undefined {
  const memo = info.memo?.[BATCH_ITEM_MEMO_KEY] as Partial<BatchItemMemo> | undefined;
  if (typeof memo?.batchId !== 'string' || typeof memo.row !== 'number' || typeof memo.round !== 'number') {
    return undefined;
  }
  const callerId = typeof memo.callerId === 'string' ? { callerId: memo.callerId } : {};
  return { batchId: memo.batchId, row: memo.row, round: memo.round, ...callerId };
}

/** The items of a batch, every round. */
export function itemsQuery(batchId: string, ...conditions: Condition[]): Condition {
  return and(is(BatchId, batchId), ofType(WorkflowType.verification), ...conditions);
}

/** A visibility condition that keeps the closed items that may have one of `outcomes` (`itemState` decides exactly). */
export function outcomesCondition(outcomes: readonly ItemOutcome[]): Condition {
  const recorded = outcomes.filter(isOutcome);
  const byStatus = outcomes.flatMap((o) => STATUS_OF_OUTCOME[o] ?? []);
  return or(
    ...(recorded.length > 0 ? [and(withStatusIn(['Completed', 'Failed']), isOneOf(VerificationStage, recorded))] : []),
    ...(recorded.includes(UNINDEXED_COMPLETION.outcome) ? [completedUnindexed] : []),
    ...byStatus.map(withStatus),
  );
}
