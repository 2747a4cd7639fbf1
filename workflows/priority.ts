import type { Priority } from '@temporalio/common';

/**
 * The lanes of the task queue (DESIGN §8), as Temporal task-queue priority keys: lower is dispatched first whenever
 * tasks wait in the queue (behind the rate limit, or for a free worker slot). A person waiting on an answer goes
 * first, then a front desk checking one patient in, then bulk work. Temporal's default for a task that names no
 * priority is 3 (the middle of its 1–5), so workflows started without a lane (discoveries, webhook setup, anything
 * recorded before lanes existed) share the bulk lane rather than overtaking the front desk.
 */
export const LANES = { person: 1, 'front-desk': 2, bulk: 3 } as const;
export type Lane = keyof typeof LANES;

/** Fairness weights by tenant (`ELIGIBILITY_TENANT_WEIGHTS`); a tenant not named weighs 1, Temporal's default. */
export type TenantWeights = Readonly<Record<string, number>>;

/**
 * A workflow's priority: its lane, and its tenant as the fairness key, so tenants of one lane share its dispatch in
 * proportion to their weights (Temporal's default weight is 1). Workflow tasks and activities inherit it; a call that
 * overrides only `priorityKey` keeps the tenant.
 */
export function lanePriority(lane: Lane, tenant?: string, weights: TenantWeights = {}): Priority {
  const weight = tenant !== undefined && Object.hasOwn(weights, tenant) ? weights[tenant] : undefined;
  return {
    priorityKey: LANES[lane],
    ...(tenant ? { fairnessKey: tenant } : {}),
    ...(weight !== undefined ? { fairnessWeight: weight } : {}),
  };
}
