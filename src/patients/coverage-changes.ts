import type { Client } from '@temporalio/client';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { markChangesSeenUpdate, patientQuery } from '../../workflows/patient/patient.js';
import { CHANGE_ID_PATTERN, type CoverageChange } from '../../workflows/patient/patient.js';
import { CoverageChanges, Tenant } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import {
  and,
  is,
  isTenant,
  noTenant,
  ofType,
  withStatus,
  type Condition,
  type TenantFilter,
} from '../temporal/visibility-query.js';

/** One item of the Changes list: the change and its patient's opaque id; identifiers only, no patient value. */
export interface ChangeItem extends CoverageChange {
  patientId: string;
}

/** Patients the Changes list reads at most per request: each is one query. */
export const CHANGES_PAGE_PATIENTS = 100;

/** The patients of a tenant or tenants (every tenant for `null`) with a change nobody marked seen; undefined: none can be. */
export function unseenChangesQuery(tenant: TenantFilter | null): Condition | undefined {
  if (tenant !== null && noTenant(tenant)) return undefined;
  const conditions: Condition[] = [ofType(WorkflowType.patient), withStatus('Running'), is(CoverageChanges, 'unseen')];
  if (tenant !== null) conditions.push(isTenant(Tenant, tenant));
  return and(...conditions);
}

/**
 * The unseen coverage changes of a tenant or tenants (every tenant for `null`), newest first: the patients marked `unseen` in
 * visibility (eventually consistent: a change shows within seconds), then each patient's own list (exact).
 */
export async function unseenChanges(client: Client, tenant: TenantFilter | null): Promise<ChangeItem[]> {
  const query = unseenChangesQuery(tenant);
  if (!query) return [];
  const ids: string[] = [];
  for await (const execution of client.workflow.list({ query, pageSize: CHANGES_PAGE_PATIENTS })) {
    ids.push(execution.workflowId);
    if (ids.length >= CHANGES_PAGE_PATIENTS) break;
  }
  const views = await Promise.all(ids.map((id) => client.workflow.getHandle(id).query(patientQuery)));
  return views
    .flatMap((view) =>
      view.changes.filter((c) => c.seenAt === undefined).map((c) => ({ ...c, patientId: view.patientId })),
    )
    .sort((a, b) => b.at - a.at);
}

/** The patient workflow a change belongs to (its id names it). */
export const patientOfChange = (changeId: string) =>
  patientWorkflowId(`pt_${CHANGE_ID_PATTERN.exec(changeId)?.[1] ?? ''}`);

/** Takes a change off the Changes list; `seen: 0` when it was already seen or is unknown. */
export async function markChangeSeen(client: Client, changeId: string): Promise<{ seen: number }> {
  return client.workflow
    .getHandle(patientOfChange(changeId))
    .executeUpdate(markChangesSeenUpdate, { args: [{ changeIds: [changeId] }] });
}
