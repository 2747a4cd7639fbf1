import type { Client } from '@temporalio/client';
import { CliError } from './context.js';

/**
 * Rethrows the error of a signal or an update; when Temporal refused it because the workflow has closed (NOT_FOUND,
 * which it also answers for one that never existed), as a line saying so, how it ended, and what that means.
 */
export async function rethrowExplainingClosed(
  client: Client,
  workflowId: string,
  err: unknown,
  consequence: string,
): Promise<never> {
  const { WorkflowNotFoundError } = await import('@temporalio/client');
  if (err instanceof WorkflowNotFoundError) {
    const { closedMessage, closedWorkflow } = await import('../../src/temporal/closed-workflow.js');
    const closed = await closedWorkflow(client, workflowId);
    if (closed) throw new CliError(`${closedMessage(closed)}; ${consequence}`);
  }
  throw err;
}
