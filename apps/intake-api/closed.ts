import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyReply } from 'fastify';
import { closedMessage, closedWorkflow } from '../../src/temporal/closed-workflow.js';
import { withDeadline, type IntakeDeps } from './deps.js';

export const WORKFLOW_CLOSED = 'workflow_closed';

/**
 * A signal or an update refused as NOT_FOUND may be for a workflow that has closed: that is answered 409 with how it
 * ended (`outcome`), not 404. True when it answered; false when the error is anything else, the workflow does not
 * exist, or how it ended could not be read. (A boolean, not the reply: Fastify's reply is a thenable, which `await`
 * would unwrap to undefined and so answer the request a second time.)
 */
export async function replyIfClosed(
  deps: IntakeDeps,
  reply: FastifyReply,
  workflowId: string,
  err: unknown,
  consequence: string,
): Promise<boolean> {
  if (!(err instanceof WorkflowNotFoundError)) return false;
  const closed = await withDeadline(deps, () => closedWorkflow(deps.client, workflowId)).catch(() => undefined);
  if (!closed) return false;
  void reply
    .code(409)
    .send({ error: WORKFLOW_CLOSED, message: `${closedMessage(closed)}; ${consequence}`, outcome: closed.outcome });
  return true;
}
