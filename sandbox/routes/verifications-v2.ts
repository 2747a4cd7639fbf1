import type { FastifyInstance } from 'fastify';
import {
  INVALID_REQUEST,
  IdempotencyKey,
  VerificationRequestV2,
  type VerificationResponseV2,
} from '../../src/contract/index.js';
import type { SandboxContext } from '../context.js';
import { fingerprint } from '../idempotency.js';
import { parse, sendOrDrop } from '../replies.js';
import { createVerification } from '../verifications.js';

/**
 * `POST /v2/verifications`. The idempotency header is required (a UUID v4); the same key with the same body answers
 * the first response again without creating anything, the same key with another body is a 400 naming the header.
 * Every 400 echoes the caller's `id` when the body carries a string `id`.
 */
export function verificationV2Routes(app: FastifyInstance, ctx: SandboxContext): void {
  const header = ctx.config.idempotencyHeader;
  app.post('/v2/verifications', (request, reply) => {
    const raw = request.body as { id?: unknown } | null | undefined;
    const callerId = typeof raw?.id === 'string' ? raw.id : undefined;
    const fail = (param: string) => sendOrDrop(ctx, request, reply, 400, invalidBody(param, callerId));

    const key = request.headers[header.toLowerCase()];
    if (typeof key !== 'string' || !IdempotencyKey.safeParse(key).success) return fail(header);
    const body = parse(VerificationRequestV2, request.body);
    if (!body.ok) return fail(body.param);

    const bodyFingerprint = fingerprint(request.body);
    const prior = ctx.idempotency.lookup(request.clientId, key, bodyFingerprint);
    if (prior.kind === 'conflict') return fail(header);
    if (prior.kind === 'replay') {
      ctx.stats.add('idempotentReplays');
      reply.header('idempotent-replayed', 'true');
      return sendOrDrop(ctx, request, reply, 201, prior.response);
    }

    const { payerId, providerGroupId, specialtyCode, id } = body.data;
    if (!ctx.state.findPayer(payerId)) return fail('payerId');
    if (providerGroupId !== undefined && !ctx.state.providerGroups.has(providerGroupId)) {
      return fail('providerGroupId');
    }
    // A patient whose verifications were made to fail (POST /sandbox/coverage): the service refuses the patient.
    if (body.data.patient && ctx.state.coverage.failing(body.data.patient)) return fail('patient');
    const record = createVerification(ctx, { version: 'v2', payerId, specialtyCode, id });
    const response: VerificationResponseV2 = {
      verificationId: record.verificationId,
      ...(id === undefined ? {} : { id }),
    };
    ctx.idempotency.remember(request.clientId, key, bodyFingerprint, response);
    return sendOrDrop(ctx, request, reply, 201, response);
  });
}

function invalidBody(param: string, id: string | undefined) {
  return { error: INVALID_REQUEST, param, ...(id === undefined ? {} : { id }) };
}
