import type { EndpointView } from './endpoints.js';
import { EndpointRefused, REDELIVER_LIMIT } from './endpoint-rules.js';
import type { EventServices } from './services.js';

/**
 * After a change to an endpoint: one that no longer takes deliveries (disabled by a person) has what was queued for it
 * set aside as undelivered, for redelivery once it is enabled again.
 */
export async function endpointChanged(services: Pick<EventServices, 'outbox'>, endpoint: EndpointView): Promise<void> {
  if (endpoint.status !== 'active') await services.outbox.setAside(endpoint.id);
}

/**
 * Queues kept events for an active endpoint again: one by id, or every one it never acknowledged since a time (at most
 * REDELIVER_LIMIT). Answers how many were queued. A disabled endpoint is refused (`disabled`): enable it first.
 */
export async function redeliver(
  services: Pick<EventServices, 'log' | 'outbox'>,
  endpoint: EndpointView,
  choice: { eventId: string } | { failedSince: Date },
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
  await services.outbox.requeue(endpoint.id, chosen);
  return chosen.length;
}
