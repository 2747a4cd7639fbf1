import type { FastifyRequest } from 'fastify';
import type { AuditEvent } from '../audit/audit-entry.js';
import { ownedIfAny } from './owned-object.js';
import { declaredAction } from './route-declarations.js';

/**
 * Refused accesses on record (docs/operating/access-and-audit.md, decision 84): the wall of the intake API and the
 * console notes what it refused, and the app's answer hook writes one `denied` or `not-found` entry for each 403 or 404
 * it sends, so that no route writes one by hand and none can forget it.
 */

export type RefusalOutcome = 'denied' | 'not-found';

/** What the wall refused. */
export interface Refusal {
  /** `denied`: the object exists (another tenant's) or the caller may not do this; `not-found`: no such object. */
  outcome: RefusalOutcome;
  /**
   * The refused object's tenant, or the tenant the request named; null for an object that does not exist, so that an
   * administrator of the caller's tenant cannot tell from the trail whether another tenant's object exists.
   */
  tenant: string | null;
  workflowId?: string;
  batchId?: string;
  /** An id with no field of its own in an entry (an event endpoint's): added to the action, `<action>:<id>`. */
  objectId?: string;
  /** The action, when the route that answers is not the one refused (a hidden route's 404 is the not-found handler's). */
  action?: string;
}

const refusals = new WeakMap<FastifyRequest, Refusal>();

export const noteRefusal = (request: FastifyRequest, refusal: Refusal): void => {
  refusals.set(request, refusal);
};

export const refusalOf = (request: FastifyRequest): Refusal | undefined => refusals.get(request);

/** The longest id an entry keeps whole; a longer one is cut there, ending with `…`. */
export const MAX_RECORDED_ID = 128;
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;

/**
 * An id from a request (a path's, or a `tenant` named) as an entry records it: letters, digits and `._:@-` only, cut to
 * 128 characters; anything else (spaces, slashes, other characters: it may be anything pasted in) is left out.
 */
export function recordableId(id: unknown): string | undefined {
  if (typeof id !== 'string' || !PLAIN_ID.test(id)) return undefined;
  return id.length > MAX_RECORDED_ID ? `${id.slice(0, MAX_RECORDED_ID)}…` : id;
}

/** The ids a refusal names, each only when recordable. */
export function probed(ids: { workflowId?: string; batchId?: string; objectId?: string }): Partial<Refusal> {
  const workflowId = recordableId(ids.workflowId);
  const batchId = recordableId(ids.batchId);
  const objectId = recordableId(ids.objectId);
  return { ...(workflowId ? { workflowId } : {}), ...(batchId ? { batchId } : {}), ...(objectId ? { objectId } : {}) };
}

/** The name a kind of object goes by in actions, where it differs from the kind's. */
const NOUNS: Record<string, string> = { endpoint: 'event-endpoint' };

/**
 * The action a refusal records: the route's declared one; for a route that records nothing when it answers
 * (`{none: why}`), `<object>.read` when its path names an object, else its method and path pattern (`GET /batches`).
 */
export function refusedAction(request: FastifyRequest): string {
  const declared = declaredAction(request);
  // One read from the request (`schedule.<act>`) is kept only when it is plain, as an id is.
  if (declared !== undefined && recordableId(declared) === declared) return declared;
  const owns = request.routeOptions.config.owns;
  if (owns !== undefined && owns !== 'own-tenant' && owns !== 'none') return `${NOUNS[owns] ?? owns}.read`;
  return `${request.method} ${request.routeOptions.url ?? ''}`;
}

/**
 * The entry of a refused request (a 403 or 404 of a route that declares its access), without actor and source: what
 * the wall noted, else what it found of the object (the object's tenant and ids), else `callerTenant` for a refusal
 * that concerns no object (a scope, a role, a list), and no tenant for a 404 of an object route. `fromPath`: the ids
 * the path names, for a refusal made before the object was looked at (a scope, a role).
 */
export function refusalEvent(
  request: FastifyRequest,
  status: number,
  callerTenant: string | null,
  fromPath: Partial<Refusal> = {},
): Omit<AuditEvent, 'actor' | 'source'> {
  const owns = request.routeOptions.config.owns;
  const namesObject = owns !== undefined && owns !== 'own-tenant' && owns !== 'none';
  const object = ownedIfAny(request);
  const found: Refusal = refusalOf(request) ?? {
    outcome: status === 404 ? 'not-found' : 'denied',
    tenant: object?.tenant !== undefined ? object.tenant : namesObject && status === 404 ? null : callerTenant,
    ...(object
      ? probed({
          ...(object.workflowId ? { workflowId: object.workflowId } : {}),
          ...(object.batch ? { batchId: object.batch.batchId } : {}),
          ...(object.endpoint ? { objectId: object.endpoint.id } : {}),
        })
      : fromPath),
  };
  const action = found.action ?? refusedAction(request);
  return {
    action: found.objectId ? `${action}:${found.objectId}` : action,
    outcome: found.outcome,
    tenant: found.tenant,
    ...(found.workflowId ? { workflowId: found.workflowId } : {}),
    ...(found.batchId ? { batchId: found.batchId } : {}),
  };
}
