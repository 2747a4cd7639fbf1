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

/** One attempt of a batch's row: what visibility shows of it, and the execution it was read from. */
export interface BatchAttempt {
  view: BatchItemView;
  info: WorkflowExecutionInfo;
}

/**
 * Every attempt of a batch's rows in row order (the order of the submitted file; a row's attempts by round), each
 * marked `superseded` when a later round replaced it. Visibility has no order by a memo's row (SQL visibility takes no
 * ORDER BY), so the whole batch is read once (at most MAX_BATCH_ITEMS per round) and sorted here.
 */
export async function batchAttempts(client: Client, batchId: string): Promise<BatchAttempt[]> {
  const all: BatchAttempt[] = [];
  for await (const info of client.workflow.list({ query: itemsQuery(batchId), pageSize: 1000 })) {
    const view = itemView(info);
    if (view) all.push({ view, info });
  }
  const latest = new Map<number, number>();
  for (const { view } of all) latest.set(view.row, Math.max(latest.get(view.row) ?? 0, view.round));
  for (const { view } of all) view.superseded = view.round < (latest.get(view.row) ?? 0);
  return all.sort((a, b) => byRow(a.view, b.view));
}

/** Each row's latest attempt, in row order. */
export const latestAttempts = async (client: Client, batchId: string): Promise<BatchAttempt[]> =>
  (await batchAttempts(client, batchId)).filter(({ view }) => !view.superseded);

/**
 * A page of a batch's items in row order, optionally at one stage or with one outcome, cut after the cursor: the row
 * and round last shown, so pages stay in order while items move meanwhile.
 */
export async function listBatchItems(
  client: Client,
  batchId: string,
  options: ListItemsOptions,
): Promise<{ items: BatchItemView[]; nextPageToken?: string }> {
  const cursor = options.pageToken ? readPageToken('batch-items', options.pageToken, RowCursor) : undefined;
  const wanted = (await batchAttempts(client, batchId))
    .map(({ view }) => view)
    .filter((item) => options.superseded || !item.superseded)
    .filter((item) => (options.stage ? item.stage === options.stage : true))
    .filter((item) => (options.outcome ? item.outcome === options.outcome : true));
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
