import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { batchItemWorkflowId } from '../../workflows/batch/batch.js';
import type { ItemOutcome, RunningStage } from '../../workflows/shared/stages.js';
import { DiscoveryId, PayerId, VerificationId } from '../../workflows/shared/search-attributes.js';
import { itemMemo, itemsQuery, itemState, outcomesCondition, stageCondition } from './item-state.js';
import { withWorkflowIdIn } from '../temporal/visibility-query.js';
import { visibilityPage } from '../temporal/visibility-page.js';

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

/**
 * Marks the items a later round replaced. A replacement's id is derived (round, row or caller id), so one visibility
 * list by workflow id answers for a whole page; a replacement started a moment ago may not show yet.
 */
async function markSuperseded(client: Client, batchId: string, items: BatchItemView[], rounds: number) {
  const candidates = new Map<string, BatchItemView>();
  for (const item of items) {
    for (let round = item.round + 1; round <= rounds; round += 1) {
      candidates.set(batchItemWorkflowId(batchId, item.row, item.callerId, round), item);
    }
  }
  // A caller id may hold a quote, which cannot go inside the query's string: such an attempt is shown as latest.
  const ids = [...candidates.keys()].filter((id) => !/['"\\]/.test(id));
  for (let at = 0; at < ids.length; at += 100) {
    const query = itemsQuery(batchId, withWorkflowIdIn(ids.slice(at, at + 100)));
    for await (const info of client.workflow.list({ query })) {
      const replaced = candidates.get(info.workflowId);
      if (replaced) replaced.superseded = true;
    }
  }
}

export interface ListItemsOptions {
  stage?: RunningStage;
  outcome?: ItemOutcome;
  pageSize: number;
  pageToken?: string;
  /** The batch's resubmission rounds so far (its memo's `round`): attempts of earlier rounds may be superseded. */
  rounds: number;
  /** Include attempts a resubmission replaced (default: only each row's latest). */
  superseded?: boolean;
}

/** A page of a batch's items, newest first, optionally at one stage or with one outcome. */
export async function listBatchItems(
  client: Client,
  batchId: string,
  options: ListItemsOptions,
): Promise<{ items: BatchItemView[]; nextPageToken?: string }> {
  const condition = options.stage
    ? [stageCondition(options.stage)]
    : options.outcome
      ? [outcomesCondition([options.outcome])]
      : [];
  const page = await visibilityPage(client, itemsQuery(batchId, ...condition), 'batch-items', {
    limit: options.pageSize,
    ...(options.pageToken ? { pageToken: options.pageToken } : {}),
  });
  const items = page.infos
    .flatMap((info) => itemView(info) ?? [])
    // The condition narrows; the item's own reading decides (a failed workflow's stage may be any).
    .filter((item) => !options.outcome || item.outcome === options.outcome);
  if (options.rounds > 0) await markSuperseded(client, batchId, items, options.rounds);
  return {
    items: options.superseded ? items : items.filter((item) => !item.superseded),
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
  };
}
