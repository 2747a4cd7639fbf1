import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.js';
import { forbidden, internalError, tooManyRequests } from './replies.js';

/**
 * Runs before every service call except /oauth/token, in this order: injected latency, bearer authentication (403),
 * the client's rate limit (429), injected errors (500 / 429). A refused call never reaches its handler.
 */
export function serviceGuard(ctx: SandboxContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    await ctx.faults.delay();
    const clientId = ctx.tokens.authenticate(request.headers.authorization);
    if (clientId === undefined) return forbidden(reply);
    request.clientId = clientId;
    const waitSeconds = ctx.limiter.take(clientId);
    if (waitSeconds > 0) return tooManyRequests(reply, waitSeconds);
    const injected = ctx.faults.injectedError();
    if (injected === 500) return internalError(reply);
    if (injected === 429) return tooManyRequests(reply, ctx.faults.settings.retryAfterSeconds);
    return undefined;
  };
}

/** /oauth/token gets the injected latency only: a client must always be able to get a token. */
export function tokenGuard(ctx: SandboxContext) {
  return async (): Promise<void> => {
    await ctx.faults.delay();
  };
}
