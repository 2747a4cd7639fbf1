import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { viewQuery, findView } from '../../../src/temporal/ui-views.js';
import { and, isOneOf, type Condition } from '../../../src/temporal/visibility-query.js';
import { BatchId, PayerId, SpecialtyCode, Tenant } from '../../../workflows/shared/search-attributes.js';

/** One row of a console queue: identifiers from visibility only (no query, no history, no patient data). */
export interface QueueRow {
  workflowId: string;
  /** `verificationWorkflow`, or `runInputWorkflow` for a run whose verification had closed. */
  type: string;
  /** ISO 8601: when the verification (or the standalone run) started. */
  startedAt: string;
  payerId?: string;
  specialtyCode?: string;
  batchId?: string;
  tenant?: string;
}

/** Most rows a queue page reads; a team with more waiting runs works through the oldest first. */
export const QUEUE_LIMIT = 1000;

function row(info: WorkflowExecutionInfo): QueueRow {
  const a = info.typedSearchAttributes;
  const optional = (name: keyof QueueRow, value: string | undefined) => (value ? { [name]: value } : {});
  return {
    workflowId: info.workflowId,
    type: info.type,
    startedAt: info.startTime.toISOString(),
    ...optional('payerId', a.get(PayerId)),
    ...optional('specialtyCode', a.get(SpecialtyCode)),
    ...optional('batchId', a.get(BatchId)),
    ...optional('tenant', a.get(Tenant)),
  };
}

/**
 * A queue of the Temporal UI views (`src/temporal/ui-views.ts`: the same query an engineer types there), oldest
 * first, of the operator's tenants only (`tenants` null: every tenant, and workflows started without one). Temporal's
 * SQL visibility lists newest first and cannot sort otherwise, so up to QUEUE_LIMIT rows are read and turned around.
 */
export async function queue(
  client: Client,
  view: 'awaiting-input' | 'needs-review',
  tenants: readonly string[] | null,
): Promise<QueueRow[]> {
  if (tenants !== null && tenants.length === 0) return [];
  const rows: QueueRow[] = [];
  const all = viewQuery(findView(view), undefined) as Condition;
  const query = tenants === null ? all : and(all, isOneOf(Tenant, tenants));
  for await (const info of client.workflow.list({ query, pageSize: 100 })) {
    rows.push(row(info));
    if (rows.length >= QUEUE_LIMIT) break;
  }
  return rows.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
