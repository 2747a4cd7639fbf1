import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { defaultPayloadConverter, type TypedSearchAttributes } from '@temporalio/common';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { describeBatch, type BatchView } from '../batches/describe.js';
import { GrpcStatus, grpcCode } from '../temporal/errors.js';
import type { TenantFilter } from '../temporal/visibility-query.js';

/**
 * The tenant wall (docs/operating/access-and-audit.md), the one home of its rules for the intake API, the console, the
 * CLI and the codec server.
 *
 * A scope is the tenants someone sees and acts for: `null` for every tenant (an administrator, the single-tenant key,
 * a client made for all tenants), else a list: an intake client's one tenant, an operator's several (none: nothing).
 */
export type TenantScope = readonly string[] | null;

/** Every tenant, objects started without one included. */
export const EVERY_TENANT: TenantScope = null;

/** The scope of a credential that names one tenant or none (`null`: every tenant). */
export const scopeOfTenant = (tenant: string | null): TenantScope => (tenant === null ? null : [tenant]);

/**
 * Whether an object of `tenant` is the scope's to see. An object started without a tenant (`null`, `undefined`) is
 * seen by a scope of every tenant only.
 */
export const sees = (scope: TenantScope, tenant: string | null | undefined): boolean =>
  scope === null || (tenant !== null && tenant !== undefined && scope.includes(tenant));

/** Why a start was refused: it named a tenant outside the scope, or named none where the scope has several (or none). */
export type StartRefusal = 'another-tenant' | 'choose-one';

/**
 * The tenant what someone starts (a verification, a batch, an appointment, a search) belongs to, given the tenant the
 * request names, if any. A scope of every tenant takes the one named (or none); any other scope takes the one named
 * when it is theirs, else refuses it, and takes its only tenant when none is named.
 */
export function tenantToStart(
  scope: TenantScope,
  named: string | undefined,
): { tenant: string | undefined } | { refused: StartRefusal } {
  if (scope === null) return { tenant: named };
  if (named !== undefined) return scope.includes(named) ? { tenant: named } : { refused: 'another-tenant' };
  const [only, ...others] = scope;
  return only !== undefined && others.length === 0 ? { tenant: only } : { refused: 'choose-one' };
}

/**
 * The visibility filter of a list (src/temporal/visibility-query.ts): undefined for every tenant (those without one
 * too), else the scope's tenants. `named` narrows it; one outside the scope leaves nothing, as an empty tenant would.
 */
export function tenantsToList(scope: TenantScope, named?: string): TenantFilter | undefined {
  if (scope === null) return named;
  if (named === undefined) return scope.length === 1 ? scope[0] : scope;
  return scope.includes(named) ? named : [];
}

/** A workflow's tenant as its description holds it (the `Tenant` search attribute); null: started without one. */
export const tenantOfDescription = (description: { typedSearchAttributes: TypedSearchAttributes }): string | null =>
  description.typedSearchAttributes.get(Tenant) ?? null;

/**
 * A workflow's tenant (a verification's, a batch's, a patient's: each is a workflow), read from its `Tenant` search
 * attribute by the raw describe call, so nothing encrypted (an input, a batch's memo) is decoded only to read a tenant.
 * Null: started without one. Throws `WorkflowNotFoundError` when there is no such workflow.
 */
export async function workflowTenant(client: Client, workflowId: string): Promise<string | null> {
  try {
    const { workflowExecutionInfo } = await client.workflowService.describeWorkflowExecution({
      namespace: client.options.namespace,
      execution: { workflowId },
    });
    const indexed = workflowExecutionInfo?.searchAttributes?.indexedFields?.[Tenant.name];
    return indexed ? defaultPayloadConverter.fromPayload<string>(indexed) : null;
  } catch (err) {
    if (grpcCode(err) === GrpcStatus.NOT_FOUND)
      throw new WorkflowNotFoundError('no such workflow', workflowId, undefined);
    throw err;
  }
}

/**
 * The workflow's tenant when it exists and is the scope's to see; undefined otherwise, another tenant's exactly as one
 * that does not exist.
 */
export async function seenWorkflow(
  client: Client,
  scope: TenantScope,
  workflowId: string,
): Promise<{ tenant: string | null } | undefined> {
  try {
    const tenant = await workflowTenant(client, workflowId);
    return sees(scope, tenant) ? { tenant } : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/** The batch when it exists and is the scope's to see; undefined otherwise (another tenant's as a missing one). */
export async function seenBatch(client: Client, scope: TenantScope, batchId: string): Promise<BatchView | undefined> {
  const view = await describeBatch(client, batchId);
  return view && sees(scope, view.tenant) ? view : undefined;
}
