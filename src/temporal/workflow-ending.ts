import type { WorkflowExecutionStatusName } from '@temporalio/client';
import { isOutcome, type ItemOutcome } from '../../workflows/shared/stages.js';
import type { ExecutionStatus } from './visibility-query.js';

/**
 * How a closed workflow ended, in the stage table's words: the one reading, shared by batch items, the CLI, the intake
 * API and the console. A verification that ended by itself recorded its outcome as its last `VerificationStage`; one
 * that closed without recording an outcome failed unexpectedly. Closed from outside, Temporal's status says how. A
 * workflow with no stage (a batch, a run input) ends as its status says.
 */
export function howItEnded(status: WorkflowExecutionStatusName, stage: string | undefined): ItemOutcome {
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
