import type { WorkflowExecutionInfo } from '@temporalio/client';
import {
  BATCH_ITEM_MEMO_KEY,
  ITEM_OUTCOMES,
  RUNNING_STAGES,
  type BatchItemMemo,
  type ItemOutcome,
  type RunningStage,
} from '../../workflows/shared/batch-types.js';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';

/** Where one item's verification stands, as visibility shows it: running at a stage, or closed with an outcome. */
export type ItemState = { running: true; stage: RunningStage } | { running: false; outcome: ItemOutcome };

const isRunningStage = (stage: string | undefined): stage is RunningStage =>
  (RUNNING_STAGES as readonly (string | undefined)[]).includes(stage);
const isOutcome = (stage: string | undefined): stage is ItemOutcome =>
  (ITEM_OUTCOMES as readonly (string | undefined)[]).includes(stage);

/**
 * A closed verification's last stage is its outcome when it ended by itself (completed or failed; one that closed
 * without recording an outcome failed unexpectedly); closed from outside, Temporal's status says how. This is the one
 * reading of an item, shared by counts, lists, results and resubmission.
 */
export function itemState(info: Pick<WorkflowExecutionInfo, 'status' | 'typedSearchAttributes'>): ItemState {
  const stage = info.typedSearchAttributes.get(VerificationStage);
  switch (info.status.name) {
    case 'RUNNING':
      return { running: true, stage: isRunningStage(stage) ? stage : 'validating' };
    case 'COMPLETED':
    case 'FAILED':
      return { running: false, outcome: isOutcome(stage) ? stage : 'failed' };
    case 'TIMED_OUT':
      return { running: false, outcome: 'timed-out' };
    case 'CANCELLED':
      return { running: false, outcome: 'cancelled' };
    default:
      return { running: false, outcome: 'terminated' };
  }
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

/** `BatchId = "<id>" AND WorkflowType = 'verificationWorkflow'`: the items of a batch, every round. */
export function itemsQuery(batchId: string, ...conditions: string[]): string {
  // The id was validated (BatchIdSchema): no quote can end the string early.
  return [`BatchId = "${batchId}"`, `WorkflowType = 'verificationWorkflow'`, ...conditions].join(' AND ');
}

/** Outcomes a verification records as its last stage; `terminated` (and the others, when closed from outside) are
 * Temporal's statuses. */
const STAGE_OUTCOMES: readonly ItemOutcome[] = [
  'completed',
  'failed',
  'no-coverage',
  'timed-out',
  'cancelled',
  'abandoned',
];
const STATUS_OF: Partial<Record<ItemOutcome, string>> = {
  failed: 'Failed',
  'timed-out': 'TimedOut',
  cancelled: 'Canceled',
  terminated: 'Terminated',
};

/** A visibility condition that keeps the closed items that may have one of `outcomes` (`itemState` decides exactly). */
export function outcomesCondition(outcomes: readonly ItemOutcome[]): string {
  const stages = outcomes.filter((o) => STAGE_OUTCOMES.includes(o)).map((o) => `'${o}'`);
  const either = [
    ...(stages.length > 0
      ? [`(ExecutionStatus IN ('Completed', 'Failed') AND VerificationStage IN (${stages.join(', ')}))`]
      : []),
    ...outcomes.flatMap((o) => (STATUS_OF[o] ? [`ExecutionStatus = '${STATUS_OF[o]}'`] : [])),
  ];
  return `(${either.join(' OR ')})`;
}

/** A visibility condition that keeps the running items at `stage`. */
export function stageCondition(stage: RunningStage): string {
  return `ExecutionStatus = 'Running' AND VerificationStage = '${stage}'`;
}
