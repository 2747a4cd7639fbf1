import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';
import type { ItemOutcome } from '../../workflows/shared/stages.js';
import { howItEnded } from './workflow-ending.js';

/** A workflow that exists and has closed, and how it ended. */
export interface ClosedWorkflow {
  workflowId: string;
  /** Temporal's execution status: `COMPLETED`, `FAILED`, `TERMINATED`, `CANCELLED`, `TIMED_OUT`, ... */
  status: string;
  /** How it ended, in the stage table's words (`completed`, `timed-out`, `abandoned`, `terminated`, ...). */
  outcome: ItemOutcome;
}

/**
 * How `workflowId` ended, when Temporal refused a signal or an update to it as NOT_FOUND: it may not exist, or it may
 * have closed, which a person needs told apart ("no workflow" for one that ran is wrong). Undefined when it does not
 * exist or still runs.
 */
export async function closedWorkflow(client: Client, workflowId: string): Promise<ClosedWorkflow | undefined> {
  try {
    const described = await client.workflow.getHandle(workflowId).describe();
    const status = described.status.name;
    if (status === 'RUNNING') return undefined;
    return { workflowId, status, outcome: howItEnded(status, described.typedSearchAttributes.get(VerificationStage)) };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/** `<workflowId> has closed (<outcome>)`, for the CLI and the intake API alike. */
export function closedMessage(closed: ClosedWorkflow): string {
  return `${closed.workflowId} has closed (${closed.outcome})`;
}
