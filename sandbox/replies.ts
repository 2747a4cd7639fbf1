import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { INVALID_REQUEST, TOO_MANY_REQUESTS, firstInvalidParam } from '../src/contract/index.js';
import type { SandboxContext } from './context.js';

/** The spec's error shapes, in one place. */

export function invalidRequest(reply: FastifyReply, param?: string, id?: string): FastifyReply {
  return reply.code(400).send({
    error: INVALID_REQUEST,
    ...(param === undefined ? {} : { param }),
    ...(id === undefined ? {} : { id }),
  });
}

export function forbidden(reply: FastifyReply): FastifyReply {
  return reply.code(403).send({ error: INVALID_REQUEST });
}

export function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: INVALID_REQUEST });
}

export function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', String(Math.max(1, Math.ceil(retryAfterSeconds))))
    .send({ error: TOO_MANY_REQUESTS });
}

/** The spec shows no body for a 500; the sandbox sends one anyway, so a client can tell it from a proxy's page. */
export function internalError(reply: FastifyReply): FastifyReply {
  return reply.code(500).send({ error: 'internal_server_error' });
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; param: string };

export function parse<S extends z.ZodType>(schema: S, body: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(body);
  return result.success ? { ok: true, data: result.data } : { ok: false, param: firstInvalidParam(result.error) };
}

/**
 * Sends a verification-creation response, unless the `dropResponses` fault takes it: then the request has been fully
 * processed but the socket is destroyed, and the client sees a network error (the case idempotency exists for).
 */
export function sendOrDrop(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
): FastifyReply {
  if (!ctx.faults.takeDrop()) return reply.code(status).send(body);
  ctx.stats.add('responsesDropped');
  ctx.stats.recordCall(request.method, request.routeOptions.url ?? request.url, status);
  reply.hijack();
  request.raw.socket.destroy();
  return reply;
}
