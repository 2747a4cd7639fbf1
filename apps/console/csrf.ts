import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The form field every console form carries its token in (read from the parsed body). */
export const CSRF_FIELD = '_csrf';

/**
 * CSRF protection of every form: the secret lives in the session, each page embeds a token derived from it, and every
 * POST must bring one back (`requireCsrf`, a preHandler, so the form body is parsed by then). SameSite cookies already
 * keep other sites' requests out; the token also refuses a form replayed from another session.
 */
export function registerCsrf(app: FastifyInstance): void {
  void app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/session',
    getToken: (request) => (request.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] as string | undefined,
  });
}

export function requireCsrf(app: FastifyInstance) {
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) =>
    app.csrfProtection(request, reply, done);
}

/** The token a page embeds in its forms. */
export const csrfToken = (reply: FastifyReply) => reply.generateCsrf();
