import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointView } from '../../src/events/endpoints.js';
import { principalOf } from './access.js';
import type { IntakeDeps, IntakeEvents } from './deps.js';

/** The event routes' dependencies, or a 503 answer when this intake has no database. */
export async function eventsOr503(deps: IntakeDeps, reply: FastifyReply): Promise<IntakeEvents | undefined> {
  if (deps.events) return deps.events;
  await reply
    .code(503)
    .send({ error: 'events_unavailable', message: 'event endpoints need the database (DATABASE_URL)' });
  return undefined;
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
