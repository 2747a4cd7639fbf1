import type { Client } from '@temporalio/client';
import { tenantsToList, type TenantScope } from '../access/tenancy.js';
import { and, is, isTenant, noTenant, ofType, withStatus, withWorkflowIdIn } from '../temporal/visibility-query.js';
import { Tenant, VerificationStage } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';

/** Most verifications waiting for input one day's page reads (a person answers each, so a clinic has few). */
export const AWAITING_INPUT_LIMIT = 1_000;

/**
 * The scope's verifications (of its tenant `named`, when one is; among the ids given, when some are) waiting for a
 * person's input, by workflow id: one visibility list. The day's query (`DayQuery.awaitingInput`) and the patient page
 * (`visitCoverage`) turn `checking` visits answered by one into `needs-input`.
 */
export async function awaitingInput(
  client: Client,
  tenants: TenantScope,
  named?: string,
  among?: readonly string[],
): Promise<string[]> {
  const tenant = tenantsToList(tenants, named);
  if (noTenant(tenant) || among?.length === 0) return [];
  let query = and(ofType(WorkflowType.verification), withStatus('Running'), is(VerificationStage, 'awaiting-input'));
  if (tenant !== undefined) query = and(query, isTenant(Tenant, tenant));
  if (among !== undefined) query = and(query, withWorkflowIdIn(among));
  const { executions } = await client.workflowService.listWorkflowExecutions({
    namespace: client.options.namespace,
    query,
    pageSize: AWAITING_INPUT_LIMIT,
  });
  return executions.flatMap((e) => (e.execution?.workflowId ? [e.execution.workflowId] : []));
}
