import type { FastifyInstance } from 'fastify';
import { RunUpdateRequest, type RunUpdateResponse } from '../../src/contract/index.js';
import type { SandboxContext } from '../context.js';
import { invalidRequest, notFound, parse } from '../replies.js';

/**
 * `PUT /v1/runs/{flowRunId}`: patches the input of a pending run. Magic value: an empty `input` (`{}`) has nothing
 * to patch and is refused naming `input`; a run already answered is refused naming `flowRunId`.
 */
export function runRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.put<{ Params: { flowRunId: string } }>('/v1/runs/:flowRunId', (request, reply) => {
    const run = ctx.state.runs.get(request.params.flowRunId);
    if (!run) return notFound(reply);
    const body = parse(RunUpdateRequest, request.body);
    if (!body.ok) return invalidRequest(reply, body.param);
    if (Object.keys(body.data.input).length === 0) return invalidRequest(reply, 'input');
    if (run.status !== 'PENDING') return invalidRequest(reply, 'flowRunId');
    Object.assign(run.context, body.data.input);
    run.status = 'CREATED';
    const response: RunUpdateResponse = { flowRunId: run.flowRunId, status: run.status };
    return reply.code(200).send(response);
  });
}
