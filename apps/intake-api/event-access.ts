import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointView } from '../../src/events/endpoints.js';
import { principalOf } from './access.js';
import type { IntakeDeps, IntakeEvents } from './deps.js';

/** The event routes' hook: without the database (no event services) every one of them answers 503, before it runs. */
export const requireEvents =
  (deps: IntakeDeps) =>
  async (_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (deps.events) return undefined;
    return reply
      .code(503)
      .send({ error: 'events_unavailable', message: 'event endpoints need the database (DATABASE_URL)' });
  };

/** The event services, in a route behind `requireEvents`. */
export function eventsOf(deps: IntakeDeps): IntakeEvents {
  if (!deps.events) throw new Error('an event route ran without requireEvents');
  return deps.events;
}

/** The tenant whose endpoints the caller sees: its own, or every tenant (null) for an all-tenant caller. */
export const seenTenant = (request: FastifyRequest): string | null => principalOf(request).tenant;

/** The tenants the caller may create endpoints for: its own, or every tenant (null). */
export const createsFor = (request: FastifyRequest): readonly string[] | null => {
  const tenant = seenTenant(request);
  return tenant === null ? null : [tenant];
};

export const notFound = (reply: FastifyReply) =>
  reply.code(404).send({ error: 'not_found', message: 'no such event endpoint' });

/** The endpoint when the caller may see it (another tenant's is answered as one that does not exist). */
export async function ownEndpoint(
  events: IntakeEvents,
  request: FastifyRequest,
  endpointId: string,
): Promise<EndpointView | undefined> {
  return events.endpoints.get(endpointId, seenTenant(request));
}
