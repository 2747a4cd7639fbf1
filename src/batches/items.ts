import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { z } from 'zod';
import type { ItemOutcome, RunningStage } from '../../workflows/shared/stages.js';
import { DiscoveryId, PayerId, VerificationId } from '../../workflows/shared/search-attributes.js';
import { itemMemo, itemsQuery, itemState } from './item-state.js';
import { pageToken, readPageToken } from '../pages.js';

/** One item of a batch as visibility shows it: identifiers and where it stands, never patient data. */
export interface BatchItemView {
  row: number;
  callerId?: string;
  workflowId: string;
  /** 0 for the first attempt, n for the n-th resubmission. */
  round: number;
  /** Set while the item runs. */
  stage?: RunningStage;
  /** Set once it has closed. */
  outcome?: ItemOutcome;
  verificationId?: string;
  payerId?: string;
  discoveryId?: string;
  /** ISO 8601. */
  startedAt: string;
  closedAt?: string;
  /** A later resubmission replaced this attempt. */
  superseded: boolean;
}

export function itemView(info: WorkflowExecutionInfo): BatchItemView | undefined {
  const memo = itemMemo(info);
  if (!memo) return undefined;
  const state = itemState(info);
  const attributes = info.typedSearchAttributes;
  const optional = (name: string, value: string | undefined) => (value ? { [name]: value } : {});
  return {
    row: memo.row,
    ...optional('callerId', memo.callerId),
    workflowId: info.workflowId,
    round: memo.round,
    ...(state.running ? { stage: state.stage } : { outcome: state.outcome }),
    ...optional('verificationId', attributes.get(VerificationId)),
    ...optional('payerId', attributes.get(PayerId)),
    ...optional('discoveryId', attributes.get(DiscoveryId)),
    startedAt: info.startTime.toISOString(),
    ...optional('closedAt', info.closeTime?.toISOString()),
    superseded: false,
  };
}

export interface ListItemsOptions {
  stage?: RunningStage;
  outcome?: ItemOutcome;
  pageSize: number;
  pageToken?: string;
  /** Include attempts a resubmission replaced (default: only each row's latest). */
  superseded?: boolean;
}

/** The row and round of the last item shown. */
const RowCursor = z.object({ r: z.number().int(), n: z.number().int() });
const byRow = (a: BatchItemView, b: BatchItemView) => a.row - b.row || a.round - b.round;

/**
 * A page of a batch's items in row order (the order of the submitted file; a row's attempts by round), optionally at
 * one stage or with one outcome. Visibility has no order by a memo's row (SQL visibility takes no ORDER BY), so every
 * attempt of the batch is read (at most MAX_BATCH_ITEMS per round), sorted, and a page cut after the cursor: the row
 * and round last shown, so pages stay in order while items move meanwhile. A row's latest attempt is the one of its
 * highest round; the others were replaced by a resubmission.
 */
export async function listBatchItems(
  client: Client,
  batchId: string,
  options: ListItemsOptions,
): Promise<{ items: BatchItemView[]; nextPageToken?: string }> {
  const cursor = options.pageToken ? readPageToken('batch-items', options.pageToken, RowCursor) : undefined;
  const all: BatchItemView[] = [];
  for await (const info of client.workflow.list({ query: itemsQuery(batchId), pageSize: 1000 })) {
    const view = itemView(info);
    if (view) all.push(view);
  }
  const latest = new Map<number, number>();
  for (const item of all) latest.set(item.row, Math.max(latest.get(item.row) ?? 0, item.round));
  for (const item of all) item.superseded = item.round < (latest.get(item.row) ?? 0);
  const wanted = all
    .filter((item) => options.superseded || !item.superseded)
    .filter((item) => (options.stage ? item.stage === options.stage : true))
    .filter((item) => (options.outcome ? item.outcome === options.outcome : true))
    .sort(byRow);
  const after = cursor
    ? wanted.filter((item) => item.row > cursor.r || (item.row === cursor.r && item.round > cursor.n))
    : wanted;
  const items = after.slice(0, options.pageSize);
  const last = items.at(-1);
  return {
    items,
    ...(last && after.length > items.length
      ? { nextPageToken: pageToken('batch-items', { r: last.row, n: last.round }) }
      : {}),
  };
}
