import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { temporalFailureKind } from '../../src/temporal/errors.js';
import {
  IntakeValidationError,
  startVerification,
  type StartVerificationOptions,
} from '../../src/temporal/start-verification.js';
import { batchItemWorkflowId, type BatchItemMemo } from '../../workflows/batch/batch.js';
import { BatchId } from '../../workflows/shared/search-attributes.js';
import type { TenantWeights } from '../../workflows/shared/priority.js';
import type { VerificationWorkflowInput } from '../../workflows/verification/verification.js';
import { itemMemo } from '../../src/batches/item-state.js';
import type { StartPace } from './start-pace.js';
import type { BlindIndexKeys } from '../../src/blind-index/keys.js';

/** Starts in flight at once from one activity: enough to start a page in seconds without crowding the server. */
export const START_LANES = 8;

export interface ItemStarter {
  client: Client;
  /** The task queue of the verifications (the worker's own). */
  taskQueue: string;
  /** Fairness weights by tenant (`ELIGIBILITY_TENANT_WEIGHTS`): an item's tenant shares the bulk lane by its weight. */
  tenantWeights?: TenantWeights;
  /** How fast pages start their rows (the worker's, shared by its pages); unset = as fast as Temporal takes them. */
  startPace?: StartPace;
  /** The patient search index's keys (src/blind-index): every item is started with its patient's keyed hashes. */
  blindIndex?: BlindIndexKeys;
  /** Payer names known now (src/payers): Temporal UI shows an item's payer by name. */
  payerNames?: StartVerificationOptions['payerNames'];
}

/** Whether the workflow that holds `workflowId` is this very item (an earlier attempt of this start made it). */
export async function isItem(client: Client, workflowId: string, item: BatchItemMemo): Promise<boolean> {
  try {
    const described = await client.workflow.getHandle(workflowId).describe();
    const memo = itemMemo(described);
    return (
      described.typedSearchAttributes.get(BatchId) === item.batchId &&
      memo?.row === item.row &&
      memo.round === item.round
    );
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

export type StartItemResult = 'started' | 'duplicate' | { param: string; message: string };

/**
 * Starts one item with `startVerification`, under its derived id. An id that exists already is this item when an
 * earlier attempt started it (the activity retried after the worker died), else a duplicate: its caller id has a
 * verification from elsewhere, and nothing new starts. A request Temporal or the contract refuses is the row's
 * problem; Temporal being unavailable is thrown, and the activity retries.
 */
export async function startItem(
  { client, taskQueue, tenantWeights, blindIndex, payerNames }: ItemStarter,
  item: BatchItemMemo,
  input: Pick<VerificationWorkflowInput, 'request' | 'timing' | 'tenant' | 'retryWindowSeconds'>,
): Promise<StartItemResult> {
  const workflowId = batchItemWorkflowId(item.batchId, item.row, input.request.id, item.round);
  try {
    const { started } = await startVerification(client, input.request, {
      taskQueue,
      ...(input.timing ? { timing: input.timing } : {}),
      ...(tenantWeights ? { tenantWeights } : {}),
      ...(blindIndex ? { blindIndex } : {}),
      ...(payerNames ? { payerNames } : {}),
      batch: {
        ...item,
        workflowId,
        ...(input.tenant ? { tenant: input.tenant } : {}),
        retryWindowSeconds: input.retryWindowSeconds ?? 0,
      },
    });
    if (started || (await isItem(client, workflowId, item))) return 'started';
    return 'duplicate';
  } catch (err) {
    if (err instanceof IntakeValidationError) return { param: err.param, message: err.message };
    if (temporalFailureKind(err) === 'invalid') {
      return { param: 'request', message: 'Temporal refused the start as invalid (INVALID_ARGUMENT)' };
    }
    throw err;
  }
}
