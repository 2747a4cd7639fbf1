import type { Priority } from '@temporalio/common';

/**
 * The lanes of the task queue (docs/developing/traffic.md), as Temporal task-queue priority keys: lower is dispatched
 * first whenever tasks wait in the queue (behind the rate limit, or for a free worker slot). A person waiting on an
 * answer goes first, then a front desk checking one patient in, then bulk work. Temporal's default for a task that
 * names no priority is 3 (the middle of its 1–5), so workflows started without a lane (a discovery the receiver
 * started, webhook setup, anything recorded before lanes existed) share the bulk lane rather than overtaking the front
 * desk. A waiter's discovery runs in the waiter's lane (decision 68).
 */
export const LANES = { person: 1, 'front-desk': 2, bulk: 3 } as const;
export type Lane = keyof typeof LANES;

/** Fairness weights by tenant (`ELIGIBILITY_TENANT_WEIGHTS`); a tenant not named weighs 1, Temporal's default. */
export type TenantWeights = Readonly<Record<string, number>>;

/** The weight `ELIGIBILITY_TENANT_WEIGHTS` names for `tenant`, if any (its own keys only, never the prototype's). */
export function namedWeight(tenant: string | undefined, weights: TenantWeights = {}): number | undefined {
  return tenant !== undefined && Object.hasOwn(weights, tenant) ? weights[tenant] : undefined;
}

/**
 * A workflow's priority: its lane, and its tenant as the fairness key, so tenants of one lane share its dispatch in
 * proportion to their weights (Temporal's default weight is 1). Workflow tasks and activities inherit it; a call that
 * overrides only `priorityKey` keeps the tenant.
 */
export function lanePriority(lane: Lane, tenant?: string, weights: TenantWeights = {}): Priority {
  const weight = namedWeight(tenant, weights);
  return {
    priorityKey: LANES[lane],
    ...(tenant ? { fairnessKey: tenant } : {}),
    ...(weight !== undefined ? { fairnessWeight: weight } : {}),
  };
}

/**
 * The priority of a verification's first service call. In the bulk lane it is one key below the lane (4), so begun
 * verifications finish before new ones start: a 1,000-row run then holds a handful of verifications between their
 * calls instead of all of them, each one's calls come seconds apart instead of a whole backlog apart, and its
 * workflow stays in the worker's cache between them instead of being replayed from its history. The number of calls
 * a second is the same; only their order changes, and no bulk call is starved (each follow-up exists because a first
 * call was served). Other lanes keep their key: a front-desk check-in is one verification, and 3 is bulk's. A
 * workflow started without a priority is bulk (Temporal's default key is 3). `undefined`: the call inherits.
 */
export function firstCallPriority(workflowPriority: Priority | undefined): Priority | undefined {
  // Absent or 0 (proto3's unset) is Temporal's default key, bulk's.
  const key = workflowPriority?.priorityKey || LANES.bulk;
  return key === LANES.bulk ? { priorityKey: LANES.bulk + 1 } : undefined;
}
