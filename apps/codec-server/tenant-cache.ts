import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { workflowTenant } from '../../src/access/tenancy.js';

/** A workflow's tenant; `null` when it has none (a discovery's receiver, the governor) or does not exist. */
export type TenantOf = (workflowId: string) => Promise<string | null>;

const KEEP_MS = 60_000;
const MAX_KEPT = 10_000;

/**
 * Workflows' tenants as src/access/tenancy.ts reads them (nothing encrypted decoded), kept a minute: Temporal UI asks
 * to decode a page's payloads in many small requests, and a workflow's tenant is set when it starts and never changes.
 */
export function tenantFinder(client: Client): TenantOf {
  const kept = new Map<string, { tenant: string | null; until: number }>();
  return async (workflowId) => {
    const now = Date.now();
    const hit = kept.get(workflowId);
    if (hit && hit.until > now) return hit.tenant;
    const tenant = await workflowTenant(client, workflowId).catch((err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return null;
      throw err;
    });
    if (kept.size >= MAX_KEPT) kept.clear();
    kept.set(workflowId, { tenant, until: now + KEEP_MS });
    return tenant;
  };
}
