import { WorkflowNotFoundError } from '@temporalio/client';
import { closedMessage, closedWorkflow } from '../../src/temporal/closed-workflow.js';
import { withDeadline, type IntakeDeps } from './deps.js';
import { IntakeAnswer } from './errors.js';

export const WORKFLOW_CLOSED = 'workflow_closed';

/**
 * Sends a signal or an update: one refused as NOT_FOUND may be for a workflow that has closed, which is answered 409
 * with how it ended (`outcome`) and what that means (`consequence`), not 404. Any other failure, a workflow that does
 * not exist, or one whose end cannot be read is thrown as it came.
 */
export async function toOpenWorkflow<T>(
  deps: IntakeDeps,
  workflowId: string,
  consequence: string,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const closed = await withDeadline(deps, () => closedWorkflow(deps.client, workflowId)).catch(() => undefined);
    if (!closed) throw err;
    throw new IntakeAnswer(409, {
      error: WORKFLOW_CLOSED,
      message: `${closedMessage(closed)}; ${consequence}`,
      outcome: closed.outcome,
    });
  }
}
