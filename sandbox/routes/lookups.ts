import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { notFound } from '../replies.js';

/** The three GET endpoints: legacy patient, discovery, payer (by its id or any alias id). Unknown -> 404 `{error}`. */
export function lookupRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<{ Params: { patientId: string } }>('/v1/patients/:patientId', (request, reply) => {
    const patient = ctx.state.patients.get(request.params.patientId);
    return patient ? reply.send(patient) : notFound(reply);
  });

  app.get<{ Params: { discoveryId: string } }>('/v1/discovery/:discoveryId', (request, reply) => {
    const discovery = ctx.state.discoveries.get(request.params.discoveryId);
    return discovery ? reply.send(discovery) : notFound(reply);
  });

  app.get<{ Params: { payerId: string } }>('/v1/payers/:payerId', (request, reply) => {
    const payer = ctx.state.findPayer(request.params.payerId);
    return payer ? reply.send(payer) : notFound(reply);
  });
}
