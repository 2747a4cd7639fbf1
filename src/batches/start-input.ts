import type { Client } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow/index.js';

/**
 * The input a workflow was started with, read from the first event of its history (not a billed action, and it works
 * on a closed workflow with no worker running) and decoded with the client's converter, codec included. A batch
 * resubmits an item with the request its last attempt held, so the rows need not be kept anywhere else.
 */
export async function startInput<T>(client: Client, workflowId: string, runId: string): Promise<T> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  const started = history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started) throw new Error(`${workflowId} has no start event`);
  return decodeFromPayloadsAtIndex<T>(client.options.loadedDataConverter, 0, started.input?.payloads, {
    type: 'workflow',
    namespace: client.options.namespace,
    workflowId,
  });
}
