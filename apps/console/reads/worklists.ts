import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { itemState, outcomesCondition } from '../../../src/batches/item-state.js';
import { findView, viewQuery } from '../../../src/temporal/ui-views.js';
import { and, isOneOf, ofType, type Condition } from '../../../src/temporal/visibility-query.js';
import { BatchId, PayerId, Tenant } from '../../../workflows/shared/search-attributes.js';
import { closedErrorOf, errorField } from './closed-errors.js';
import { inLanes } from '../../../src/batches/lanes.js';
import { WorkflowType } from '../../../workflows/shared/workflow-types.js';
import { unseenChangesQuery } from '../../../src/patients/coverage-changes.js';

/**
 * The worklists of the navigation. Coverage changes (docs/integrating/patients.md) are a list of their own, counted
 * here too.
 */
export const WORKLISTS = ['failed', 'awaiting-input', 'needs-review', 'recent'] as const;
export type Worklist = (typeof WORKLISTS)[number];
/** The lists whose size the navigation shows; `changes` counts the patients with a change nobody has marked seen. */
export type CountedList = Exclude<Worklist, 'recent'> | 'changes';

/** Rows on one page of any list. */
export const PAGE_SIZE = 25;
/** The newest failures the failed list reads and groups (their error fields are read one workflow at a time). */
export const FAILED_LIMIT = 300;

/** One verification of a list: identifiers from visibility only. */
export interface ListRow {
  workflowId: string;
  type: string;
  startedAt: string;
  closedAt?: string;
  /** The stage while it runs, else how it ended. */
  stage: string;
  payerId?: string;
  batchId?: string;
  tenant?: string;
}

/** A failed verification, with the field its last error named (or the error's kind when it named none). */
export interface FailedRow extends ListRow {
  errorField: string;
}

/** The visibility query of a list for an operator's tenants (null: every tenant); undefined when it can hold nothing. */
export function worklistQuery(list: Worklist, tenants: readonly string[] | null): Condition | undefined {
  if (tenants !== null && tenants.length === 0) return undefined;
  const verifications = ofType(WorkflowType.verification);
  const base =
    list === 'failed'
      ? and(verifications, outcomesCondition(['failed', 'timed-out']))
      : list === 'recent'
        ? verifications
        : (viewQuery(findView(list), undefined) as Condition);
  return tenants === null ? base : and(base, isOneOf(Tenant, tenants));
}

export function listRow(info: WorkflowExecutionInfo): ListRow {
  const a = info.typedSearchAttributes;
  const state = itemState(info);
  const optional = (name: keyof ListRow, value: string | undefined) => (value ? { [name]: value } : {});
  return {
    workflowId: info.workflowId,
    type: info.type,
    startedAt: info.startTime.toISOString(),
    ...(info.closeTime ? { closedAt: info.closeTime.toISOString() } : {}),
    stage: state.running ? state.stage : state.outcome,
    ...optional('payerId', a.get(PayerId)),
    ...optional('batchId', a.get(BatchId)),
    ...optional('tenant', a.get(Tenant)),
  };
}

/** How many each list holds, for the navigation: visibility's count, no list read. */
export async function worklistCounts(
  client: Client,
  tenants: readonly string[] | null,
): Promise<Partial<Record<CountedList, number>>> {
  const count = async (query: Condition | undefined) => (query ? (await client.workflow.count(query)).count : 0);
  const counted = await Promise.all(
    (['failed', 'awaiting-input', 'needs-review'] as const).map(
      async (list) => [list, await count(worklistQuery(list, tenants))] as const,
    ),
  );
  return { ...Object.fromEntries(counted), changes: await count(unseenChangesQuery(tenants)) };
}

/** The rows of a list, newest first, reading at most `limit`. */
export async function readList(
  client: Client,
  list: Worklist,
  tenants: readonly string[] | null,
  limit: number,
): Promise<ListRow[]> {
  const query = worklistQuery(list, tenants);
  if (!query) return [];
  const rows: ListRow[] = [];
  for await (const info of client.workflow.list({ query, pageSize: Math.min(limit, 100) })) {
    rows.push(listRow(info));
    if (rows.length >= limit) break;
  }
  return rows;
}

/** Most verifications the recent list reads to put the newest started first. */
export const RECENT_SCAN_LIMIT = 5_000;

/**
 * The `limit` verifications started last, newest first. Visibility lists running workflows first, then closed ones by
 * when they closed, and SQL visibility takes no ORDER BY; since a workflow closes after it starts, once a closed row
 * closed before the `limit`-th newest start read so far, no row after it can start later, and the read stops there.
 */
export async function readNewestStarted(
  client: Client,
  tenants: readonly string[] | null,
  limit: number,
): Promise<ListRow[]> {
  const query = worklistQuery('recent', tenants);
  if (!query) return [];
  const rows: ListRow[] = [];
  // The `limit` latest start times read so far, latest first.
  const latest: string[] = [];
  for await (const info of client.workflow.list({ query, pageSize: 100 })) {
    const row = listRow(info);
    if (row.closedAt && latest.length >= limit && row.closedAt < latest[limit - 1]!) break;
    rows.push(row);
    const at = latest.findIndex((t) => t < row.startedAt);
    latest.splice(at === -1 ? latest.length : at, 0, row.startedAt);
    if (latest.length > limit) latest.pop();
    if (rows.length >= RECENT_SCAN_LIMIT) break;
  }
  const newestFirst = (a: ListRow, b: ListRow) => b.startedAt.localeCompare(a.startedAt);
  return rows.sort(newestFirst).slice(0, limit);
}

/** The newest failures (up to FAILED_LIMIT), each with its error field (8 reads at a time). */
export async function readFailed(client: Client, tenants: readonly string[] | null): Promise<FailedRow[]> {
  const rows = await readList(client, 'failed', tenants, FAILED_LIMIT);
  return inLanes(rows, 8, async (row) => ({
    ...row,
    errorField: errorField(await closedErrorOf(client, row.workflowId)),
  }));
}

/** How many rows have each value of `key`, most first. */
export function groupCounts<T>(rows: readonly T[], key: (row: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
