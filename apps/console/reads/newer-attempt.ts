import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { describeBatch } from '../../../src/batches/describe.js';
import { itemMemo } from '../../../src/batches/item-state.js';
import { batchItemWorkflowId } from '../../../workflows/batch/batch.js';

/**
 * The latest attempt of a batch row when `workflowId` is an earlier one (a resubmission started the row again):
 * attempts have derived ids, so the batch's rounds name every candidate, newest first. Undefined for the latest
 * attempt and for a verification of no batch.
 */
export async function newerAttempt(client: Client, workflowId: string): Promise<string | undefined> {
  const described = await client.workflow.getHandle(workflowId).describe();
  const memo = itemMemo(described);
  if (!memo) return undefined;
  const batch = await describeBatch(client, memo.batchId);
  for (let round = batch?.round ?? 0; round > memo.round; round--) {
    const candidate = batchItemWorkflowId(memo.batchId, memo.row, memo.callerId, round);
    try {
      await client.workflow.getHandle(candidate).describe();
      return candidate;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
  return undefined;
}
