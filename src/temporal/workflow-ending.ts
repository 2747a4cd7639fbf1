import type { WorkflowExecutionStatusName } from '@temporalio/client';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';
import {
  isOutcome,
  type ItemOutcome,
  type Outcome,
  type RunningStage,
  type Stage,
} from '../../workflows/shared/stages.js';
import { and, is, or, withoutStatus, withStatus, type Condition, type ExecutionStatus } from './visibility-query.js';

/**
 * How verifications of versions before decision 77 completed from `created`: leaving `created` indexed (decision 66).
 * Read here, and only here, while such closed verifications stay in visibility (the namespace's retention period).
 */
export const UNINDEXED_COMPLETION = { outcome: 'completed', from: 'created' } as const satisfies {
  outcome: Outcome;
  from: RunningStage;
};

/**
 * A verification's `VerificationStage` as it reads: the value, except that one completed from `created` (which leaves
 * that value, decision 66) reads `completed`. The one reading of the raw value; undefined when it has none.
 */
export function indexedStage(status: WorkflowExecutionStatusName, stage: string | undefined): string | undefined {
  return status === 'COMPLETED' && stage === UNINDEXED_COMPLETION.from ? UNINDEXED_COMPLETION.outcome : stage;
}

/** Verifications that completed from `created` and so left `created` indexed (decision 66). */
export const completedUnindexed: Condition = and(
  withStatus('Completed'),
  is(VerificationStage, UNINDEXED_COMPLETION.from),
);

/**
 * The visibility condition of verifications whose stage reads `stage` (`indexedStage`): `created` not once completed,
 * and `completed` also those that completed from `created`.
 */
export function atStage(stage: Stage): Condition {
  if (stage === UNINDEXED_COMPLETION.from) return and(is(VerificationStage, stage), withoutStatus('Completed'));
  if (stage === UNINDEXED_COMPLETION.outcome) return or(is(VerificationStage, stage), completedUnindexed);
  return is(VerificationStage, stage);
}

/**
 * How a closed workflow ended, in the stage table's words: the one reading, shared by batch items, the CLI, the intake
 * API and the console. A verification that ended by itself recorded its outcome as its last `VerificationStage`, or
 * completed from `created` (`indexedStage`); one that closed without recording an outcome failed unexpectedly. Closed
 * from outside, Temporal's status says how. A workflow with no stage (a batch, a run input) ends as its status says.
 */
export function howItEnded(status: WorkflowExecutionStatusName, recorded: string | undefined): ItemOutcome {
  const stage = indexedStage(status, recorded);
  switch (status) {
    case 'COMPLETED':
    case 'FAILED':
      if (isOutcome(stage)) return stage;
      return stage === undefined && status === 'COMPLETED' ? 'completed' : 'failed';
    case 'TIMED_OUT':
      return 'timed-out';
    case 'CANCELLED':
      return 'cancelled';
    default:
      return 'terminated';
  }
}

/**
 * The execution status (as visibility spells it) that an outcome can be read from alone: what a query for closed
 * items uses besides the recorded stage. `failed` is also a verification that closed without recording an outcome.
 */
export const STATUS_OF_OUTCOME: Partial<Record<ItemOutcome, ExecutionStatus>> = {
  failed: 'Failed',
  'timed-out': 'TimedOut',
  cancelled: 'Canceled',
  terminated: 'Terminated',
};
