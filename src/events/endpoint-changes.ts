import type { EndpointView } from './endpoints.js';
import { EndpointRefused, REDELIVER_LIMIT, type EndpointSpec } from './endpoint-rules.js';
import type { EventServices } from './services.js';

/** Runs a Temporal call, under the caller's deadline when it has one. */
export type Within = <T>(fn: () => Promise<T>) => Promise<T>;
const now: Within = (fn) => fn();

/**
 * Makes an endpoint and tells its tenant's dispatcher. When the dispatcher could not be told, the endpoint is deleted
 * again and the error thrown: nothing would ever be delivered to it, and its secret is never shown.
 */
export async function createEndpoint(
  services: Pick<EventServices, 'endpoints' | 'dispatchers'>,
  spec: EndpointSpec & { tenant: string },
  within: Within = now,
) {
  const created = await services.endpoints.create(spec);
  try {
    await within(() => services.dispatchers.refresh(spec.tenant));
  } catch (err) {
    await services.endpoints.delete(created.endpoint.id, spec.tenant);
    throw err;
  }
  return created;
}

/**
 * Queues kept events for an active endpoint again: one by id, or every one it never acknowledged since a time (at most
 * REDELIVER_LIMIT). Answers how many were queued. A disabled endpoint is refused (`disabled`): enable it first.
 */
export async function redeliver(
  services: Pick<EventServices, 'log' | 'dispatchers'>,
  endpoint: EndpointView,
  choice: { eventId: string } | { failedSince: Date },
  within: Within = now,
): Promise<number> {
  if (endpoint.status !== 'active') {
    throw new EndpointRefused('endpoint', 'enable the endpoint before redelivering', 'disabled');
  }
  let chosen;
  if ('eventId' in choice) {
    const event = await services.log.event(choice.eventId, endpoint.tenant);
    if (!event) throw new EndpointRefused('eventId', 'no such event', 'not-found');
    chosen = [event];
  } else {
    chosen = await services.log.failedSince(endpoint.id, choice.failedSince, REDELIVER_LIMIT);
  }
  await within(() => services.dispatchers.redeliver(endpoint.tenant, endpoint.id, chosen));
  return chosen.length;
}
