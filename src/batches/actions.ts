import type { Client } from '@temporalio/client';
import {
  type BatchMemo,
  batchWorkflowId,
  cancelBatchUpdate,
  type ResubmitAnswer,
  resubmitUpdate,
} from '../../workflows/batch/batch.js';
import type { ResubmittableOutcome } from '../../workflows/shared/stages.js';
import { describeBatch } from './describe.js';

export class BatchNotFoundError extends Error {
  override name = 'BatchNotFoundError';
  constructor(readonly batchId: string) {
    super(`no batch ${batchId}`);
  }
}

/**
 * Asks the batch to start again the items whose latest attempt ended in one of `outcomes`. The request names the round
 * the batch is at (read from its memo, which the update refreshes as it is accepted), and its update id is the
 * caller's idempotency key or that round and the outcomes: a repeated request (a retry, a double click, a second
 * terminal) is the same update, or builds on a round already resubmitted, and starts nothing.
 */
export async function resubmitBatch(
  client: Client,
  batchId: string,
  outcomes: readonly ResubmittableOutcome[],
  options: { idempotencyKey?: string } = {},
): Promise<ResubmitAnswer> {
  const view = await describeBatch(client, batchId);
  if (!view) throw new BatchNotFoundError(batchId);
  const sorted = [...new Set(outcomes)].sort();
  return client.workflow.getHandle(batchWorkflowId(batchId)).executeUpdate(resubmitUpdate, {
    args: [{ outcomes: sorted, basedOnRound: view.round }],
    updateId: options.idempotencyKey ?? `resubmit-${view.round}-${sorted.join('+')}`,
  });
}

/** Cancels the batch: nothing new starts, its running items are cancelled. Answers the batch's memo. */
export async function cancelBatch(client: Client, batchId: string): Promise<BatchMemo> {
  return client.workflow.getHandle(batchWorkflowId(batchId)).executeUpdate(cancelBatchUpdate);
}
