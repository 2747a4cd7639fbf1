import type { Client } from '@temporalio/client';
import { tenantsToList, type TenantScope } from '../access/tenancy.js';
import { and, is, isTenant, noTenant, ofType, withStatus } from '../temporal/visibility-query.js';
import { Tenant, VerificationStage } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';

/** Most verifications waiting for input one day's page reads (a person answers each, so a clinic has few). */
export const AWAITING_INPUT_LIMIT = 1_000;

/**
 * The scope's verifications (of its tenant `named`, when one is) waiting for a person's input, by workflow id: one visibility list, whose ids the day's
 * query (`DayQuery.awaitingInput`) turns its `checking` visits into `needs-input` with, counts included.
 */
export async function awaitingInput(client: Client, tenants: TenantScope, named?: string): Promise<string[]> {
  const tenant = tenantsToList(tenants, named);
  if (noTenant(tenant)) return [];
  const waiting = and(
    ofType(WorkflowType.verification),
    withStatus('Running'),
    is(VerificationStage, 'awaiting-input'),
  );
  const query = tenant === undefined ? waiting : and(waiting, isTenant(Tenant, tenant));
  const { executions } = await client.workflowService.listWorkflowExecutions({
    namespace: client.options.namespace,
    query,
    pageSize: AWAITING_INPUT_LIMIT,
  });
  return executions.flatMap((e) => (e.execution?.workflowId ? [e.execution.workflowId] : []));
}
