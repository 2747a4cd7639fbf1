import { QueryNotRegisteredError, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INVALID_REQUEST } from '../../src/contract/index.js';
import {
  grpcCode,
  grpcDetails,
  missingSearchAttribute,
  missingSearchAttributeMessage,
  temporalFailureKind,
} from '../../src/temporal/errors.js';
import { describeRejection } from '../../src/temporal/rejection.js';
import { IntakeValidationError } from '../../src/temporal/start-verification.js';
import { invalidRequestBody } from './schemas.js';

/**
 * Seconds a caller is asked to wait when Temporal is unavailable. The process reconnects within about a second of the
 * server's return (src/temporal/client.ts), so a short wait is enough and a well-behaved caller is not held back long.
 */
export const RETRY_AFTER_SECONDS = 2;

function send(reply: FastifyReply, status: number, error: string, message?: string) {
  return reply.code(status).send({ error, ...(message ? { message } : {}) });
}

/**
 * Turns an error of a Temporal call (or of the intake's own validation) into one JSON answer. A request that can never
 * succeed is a 400, whoever refused it (the intake's validation, a workflow's update validator, the service, Temporal
 * itself); 503 with `Retry-After` is only for a Temporal that is unreachable or too slow, where the same request can
 * succeed later. Messages sent name fields and workflow ids, never values; stacks stay in the log.
 */
export function replyWithError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof IntakeValidationError) return reply.code(400).send(invalidRequestBody(err.param, err.message));
  if (err instanceof WorkflowNotFoundError) return send(reply, 404, 'not_found', 'no such workflow');
  if (err instanceof QueryNotRegisteredError) return send(reply, 404, 'not_found', 'not a verification workflow');
  if (err instanceof WorkflowUpdateFailedError) {
    const { param, reason } = describeRejection(err);
    return reply
      .code(400)
      .send(param ? invalidRequestBody(param, reason) : { error: INVALID_REQUEST, message: reason });
  }
  const name = err instanceof Error ? err.name : typeof err;
  const message = err instanceof Error ? err.message : undefined;
  // Not the caller's mistake: the namespace was not set up. Said as such, naming the attribute and the fix.
  const unregistered = missingSearchAttribute(err);
  if (unregistered) {
    request.log.error({ err: { name, searchAttribute: unregistered } }, 'namespace lacks a search attribute');
    return send(reply, 500, 'namespace_not_ready', missingSearchAttributeMessage(unregistered));
  }
  switch (temporalFailureKind(err)) {
    case 'unavailable':
      request.log.error({ err: { name, message, code: grpcCode(err) } }, 'Temporal unavailable');
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ error: 'temporal_unavailable', message: 'Temporal did not answer; retry later' });
    case 'invalid':
      // Temporal's details name the limit or field it refused; they are logged, the caller gets the kind of failure.
      request.log.warn({ err: { name, details: grpcDetails(err) } }, 'Temporal refused the request as invalid');
      return send(reply, 400, INVALID_REQUEST, 'Temporal refused the request as invalid (INVALID_ARGUMENT)');
    case 'other':
      request.log.error({ err: { name, message } }, 'intake request failed');
      return send(reply, 500, 'internal_error');
  }
}
