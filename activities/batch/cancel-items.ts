import type { Client } from '@temporalio/client';
import { cancelSignal } from '../../workflows/verification/verification.js';
import { itemsQuery } from '../../src/batches/item-state.js';
import { withStatus } from '../../src/temporal/visibility-query.js';
import { inLanes } from '../../src/batches/lanes.js';

/**
 * The `cancelBatchItems` activity: the `cancel` signal to every running item of the batch (each ends `cancelled` at
 * its next step). Signalling one twice does no harm, so the batch sweeps twice to catch starts visibility lagged on.
 */
export async function cancelRunningItems(client: Client, batchId: string): Promise<number> {
  const ids: string[] = [];
  for await (const info of client.workflow.list({ query: itemsQuery(batchId, withStatus('Running')) })) {
    ids.push(info.workflowId);
  }
  const sent = await inLanes(ids, 16, async (workflowId) => {
    try {
      await client.workflow.getHandle(workflowId).signal(cancelSignal, { reason: `batch ${batchId} cancelled` });
      return true;
    } catch {
      return false; // it closed in the meantime
    }
  });
  return sent.filter(Boolean).length;
}
