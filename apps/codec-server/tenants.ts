import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { GrpcStatus, grpcCode } from '../../src/temporal/errors.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';

/** A workflow's tenant; `null` when it has none (a discovery's receiver, the governor) or does not exist. */
export type TenantOf = (workflowId: string) => Promise<string | null>;

const KEEP_MS = 60_000;
const MAX_KEPT = 10_000;

/**
 * A workflow's `Tenant` search attribute, by describing it: the raw call, so nothing encrypted (a batch's memo) is
 * decoded only to read a tenant. Temporal UI asks to decode a page's payloads in many small
 * requests, so answers are kept a minute: a workflow's tenant is set when it starts and never changes.
 */
export function tenantFinder(client: Client): TenantOf {
  const kept = new Map<string, { tenant: string | null; until: number }>();
  return async (workflowId) => {
    const now = Date.now();
    const hit = kept.get(workflowId);
    if (hit && hit.until > now) return hit.tenant;
    let tenant: string | null;
    try {
      const { workflowExecutionInfo } = await client.workflowService.describeWorkflowExecution({
        namespace: client.options.namespace,
        execution: { workflowId },
      });
      const indexed = workflowExecutionInfo?.searchAttributes?.indexedFields?.[Tenant.name];
      tenant = indexed ? defaultPayloadConverter.fromPayload<string>(indexed) : null;
    } catch (err) {
      if (grpcCode(err) !== GrpcStatus.NOT_FOUND) throw err;
      tenant = null;
    }
    if (kept.size >= MAX_KEPT) kept.clear();
    kept.set(workflowId, { tenant, until: now + KEEP_MS });
    return tenant;
  };
}
