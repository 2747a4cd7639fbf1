import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyReply } from 'fastify';
import { closedMessage, closedWorkflow } from '../../src/temporal/closed-workflow.js';
import { withDeadline, type IntakeDeps } from './deps.js';

export const WORKFLOW_CLOSED = 'workflow_closed';

/**
 * A signal or an update refused as NOT_FOUND may be for a workflow that has closed: that is answered 409 with how it
 * ended (`outcome`), not 404. Undefined when the error is anything else, or the workflow does not exist.
 */
export async function replyIfClosed(
  deps: IntakeDeps,
  reply: FastifyReply,
  workflowId: string,
  err: unknown,
  consequence: string,
): Promise<FastifyReply | undefined> {
  if (!(err instanceof WorkflowNotFoundError)) return undefined;
  const closed = await withDeadline(deps, () => closedWorkflow(deps.client, workflowId));
  if (!closed) return undefined;
  return reply
    .code(409)
    .send({ error: WORKFLOW_CLOSED, message: `${closedMessage(closed)}; ${consequence}`, outcome: closed.outcome });
}
