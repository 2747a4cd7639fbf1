import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ProviderGroupRequest, type ProviderGroupResponse } from '../../src/contract/index.js';
import type { SandboxContext } from '../context.js';
import { invalidRequest, parse } from '../replies.js';

/** `POST /v1/providers/groups`: 201 `{providerGroupId}`; the group then scopes v2 verifications. */
export function providerGroupRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v1/providers/groups', (request, reply) => {
    const body = parse(ProviderGroupRequest, request.body);
    if (!body.ok) return invalidRequest(reply, body.param);
    const providerGroupId = randomUUID();
    ctx.state.providerGroups.set(providerGroupId, { providerGroupId, ...body.data });
    const response: ProviderGroupResponse = { providerGroupId };
    return reply.code(201).send(response);
  });
}
