import type { FastifyInstance } from 'fastify';
import { INVALID_REQUEST, TokenRequest } from '../../src/contract/index.js';
import type { SandboxContext } from '../context.js';
import { parse } from '../replies.js';

/** `POST /oauth/token`: the configured client credentials for a bearer token. Every failure is 400 `{error}`. */
export function tokenRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/oauth/token', (request, reply) => {
    const body = parse(TokenRequest, request.body);
    if (!body.ok || !ctx.tokens.credentialsMatch(body.data.client_id, body.data.client_secret)) {
      return reply.code(400).send({ error: INVALID_REQUEST });
    }
    ctx.stats.add('tokensIssued');
    return reply.code(200).send(ctx.tokens.issue(body.data.client_id));
  });
}
