import { WorkflowNotFoundError, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import { batchWorkflowId } from '../../workflows/shared/batch-ids.js';
import { BATCH_MEMO_KEY, type BatchMemo, type BatchPhase } from '../../workflows/shared/batch-types.js';
import { visibilityPage } from './visibility-page.js';

/** A batch's state: its phase while it runs; once its workflow has closed, `closed` (or how it was ended). */
export type BatchState = BatchPhase | 'closed' | 'terminated' | 'failed';

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

/** Batches, newest first, optionally of one tenant; a page at a time. */
export async function listBatches(
  client: Client,
  options: { tenant?: string; pageSize: number; pageToken?: string },
): Promise<{ batches: BatchView[]; nextPageToken?: string }> {
  // The tenant was validated (TenantSchema): no quote can end the string early.
  const query = [`WorkflowType = 'batchWorkflow'`, ...(options.tenant ? [`Tenant = "${options.tenant}"`] : [])].join(
    ' AND ',
  );
  const page = await visibilityPage(client, query, options.pageSize, options.pageToken);
  return {
    batches: page.infos.flatMap((info) => batchView(info) ?? []),
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
  };
}
