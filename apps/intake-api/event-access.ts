import type { FastifyReply, FastifyRequest } from 'fastify';
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
