import { WorkflowNotFoundError, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import { BATCH_MEMO_KEY, type BatchMemo, type BatchState, batchWorkflowId } from '../../workflows/batch/batch.js';
import { newestFirstPage } from './newest-first.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { and, isTenant, noTenant, ofType, type TenantFilter } from '../temporal/visibility-query.js';

/** What followers see of a batch: its memo (counts, phase, times) and its workflow's status; no query, no item read. */
export interface BatchView extends BatchMemo {
  workflowId: string;
  state: BatchState;
  /** Temporal's execution status of the batch workflow: RUNNING, COMPLETED, … */
  status: string;
  /** ISO 8601, once the batch workflow has closed. */
  closedAt?: string;
}

/** The batch a workflow's description or listing shows, or undefined when it is not a batch (no memo). */
export function batchView(
  info: Pick<WorkflowExecutionInfo, 'workflowId' | 'status' | 'memo' | 'closeTime'>,
): BatchView | undefined {
  const memo = info.memo?.[BATCH_MEMO_KEY] as BatchMemo | undefined;
  if (!memo || typeof memo.batchId !== 'string') return undefined;
  const status = info.status.name;
  const state: BatchState =
    status === 'RUNNING'
      ? memo.phase
      : status === 'COMPLETED'
        ? memo.phase === 'cancelled'
          ? 'cancelled'
          : 'closed'
        : status === 'TERMINATED'
          ? 'terminated'
          : 'failed';
  return {
    ...memo,
    workflowId: info.workflowId,
    state,
    status,
    ...(info.closeTime ? { closedAt: info.closeTime.toISOString() } : {}),
  };
}

/** Describes `batch-<id>` (free: not a billed action, and it answers with no worker running). */
export async function describeBatch(client: Client, batchId: string): Promise<BatchView | undefined> {
  try {
    return batchView(await client.workflow.getHandle(batchWorkflowId(batchId)).describe());
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/**
 * Batches, newest first (by when they were submitted, also after a cancel), optionally of one tenant or of any of
 * several (none of an empty list); a page at a time.
 * Without a filter, every batch, those without a tenant too.
 */
export async function listBatches(
  client: Client,
  options: { tenant?: TenantFilter; pageSize: number; pageToken?: string },
): Promise<{ batches: BatchView[]; nextPageToken?: string }> {
  if (noTenant(options.tenant)) return { batches: [] };
  const batches = ofType(WorkflowType.batch);
  const query = options.tenant ? and(batches, isTenant(Tenant, options.tenant)) : batches;
  const page = await newestFirstPage(client, query, options.pageSize, options.pageToken);
  return {
    batches: page.infos.flatMap((info) => batchView(info) ?? []),
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
  };
}
