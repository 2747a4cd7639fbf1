import type { FastifyInstance } from 'fastify';
import { INVALID_REQUEST, v1WireSchema, type VerificationResponseV1 } from '../../src/contract/index.js';
import type { SandboxContext } from '../context.js';
import { parse, sendOrDrop } from '../replies.js';
import { createVerification } from '../verifications.js';

/**
 * `POST /v1/verifications` (legacy), with the configured NPI and taxonomy field names. The spec shows no idempotency
 * header for v1, so the sandbox honours none: a retried v1 call creates a second verification, as it may for real.
 */
export function verificationV1Routes(app: FastifyInstance, ctx: SandboxContext): void {
  const schema = v1WireSchema({ npi: ctx.config.v1NpiField, taxonomy: ctx.config.v1TaxonomyField });
  app.post('/v1/verifications', (request, reply) => {
    const fail = (param: string) => sendOrDrop(ctx, request, reply, 400, { error: INVALID_REQUEST, param });
    const body = parse(schema, request.body);
    if (!body.ok) return fail(body.param);
    const { patientId, payerId, id } = body.data;
    if (!ctx.state.patients.has(patientId)) return fail('patientId');
    if (!ctx.state.findPayer(payerId)) return fail('payerId');
    const record = createVerification(ctx, { version: 'v1', payerId, id });
    const response: VerificationResponseV1 = { patientId, verificationId: record.verificationId };
    return sendOrDrop(ctx, request, reply, 201, response);
  });
}
