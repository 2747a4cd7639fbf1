import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from './replies.js';

/**
 * The sandbox's bound on a path id. The spec states none; the ids the service assigns are short (UUIDs, `ep_` and an
 * opaque string, five-digit payer ids), and this is the length at which Fastify's router, left to itself, stops
 * matching and answers 400 without `param`. Longer ids are refused naming the path parameter, as any invalid field is.
 */
export const MAX_PATH_ID_LENGTH = 100;

/** The router's own limit, set out of the way so that `MAX_PATH_ID_LENGTH` decides (URLs are bounded by Node anyway). */
export const ROUTER_MAX_PARAM_LENGTH = 16 * 1024;

/** Runs after authentication and the rate limit, like the validation of a body. */
export async function pathIdGuard(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value.length > MAX_PATH_ID_LENGTH) return invalidRequest(reply, name);
  }
  return undefined;
}
