import type { FastifyRequest } from 'fastify';
import type { BatchView } from '../batches/describe.js';
import type { EndpointView } from '../events/endpoints.js';

/**
 * The object a route's path names (its `config.owns`), found and checked by its app's wall (the intake API's and the
 * console's `owned.ts`) before the handler runs, and kept here for the handler and the audit entry.
 */
export interface OwnedObject {
  /** Its tenant (null: none), for the audit entry, when the wall read it. */
  tenant?: string | null;
  /** The workflow it is, or whose it is (a patient's, a change's). */
  workflowId?: string;
  batch?: BatchView;
  endpoint?: EndpointView;
}

const owned = new WeakMap<FastifyRequest, OwnedObject>();

export const setOwned = (request: FastifyRequest, object: OwnedObject): void => {
  owned.set(request, object);
};

/** What the wall found for this request, when the route owns an object. */
export const ownedIfAny = (request: FastifyRequest): OwnedObject | undefined => owned.get(request);

/** What the wall found for this request (a route that declares the object it owns). */
export function ownedOf(request: FastifyRequest): OwnedObject {
  const found = owned.get(request);
  if (!found) throw new Error(`${request.routeOptions.url} declares no object of its own`);
  return found;
}

/** The batch the route's path names (a route that declares `owns: 'batch'`). */
export function ownedBatch(request: FastifyRequest): BatchView {
  const { batch } = ownedOf(request);
  if (!batch) throw new Error(`${request.routeOptions.url} declares no batch of its own`);
  return batch;
}

/** The event endpoint the route's path names (a route that declares `owns: 'endpoint'`). */
export function ownedEndpoint(request: FastifyRequest): EndpointView {
  const { endpoint } = ownedOf(request);
  if (!endpoint) throw new Error(`${request.routeOptions.url} declares no endpoint of its own`);
  return endpoint;
}
