import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';

/** A workflow that exists and has closed, and how it ended. */
export interface ClosedWorkflow {
  workflowId: string;
  /** Temporal's execution status: `COMPLETED`, `FAILED`, `TERMINATED`, `CANCELLED`, `TIMED_OUT`, ... */
  status: string;
  /** A verification's outcome (`completed`, `timed-out`, `abandoned`, ...); else the status in lower case. */
  outcome: string;
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
    // A verification's last stage is its outcome when it ended by itself; terminated or timed out, Temporal's word.
    const stage = described.typedSearchAttributes.get(VerificationStage);
    const endedByItself = status === 'COMPLETED' || status === 'FAILED';
    return { workflowId, status, outcome: endedByItself && stage ? stage : status.toLowerCase() };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/** `<workflowId> has closed (<outcome>)`, for the CLI and the intake API alike. */
export function closedMessage(closed: ClosedWorkflow): string {
  return `${closed.workflowId} has closed (${closed.outcome})`;
}
