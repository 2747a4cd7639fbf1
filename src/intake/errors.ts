import {
  isGrpcServiceError,
  QueryNotRegisteredError,
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INVALID_REQUEST } from '../contract/index.js';
import { IntakeValidationError } from '../temporal/start-verification.js';
import { invalidRequestBody } from './schemas.js';

function send(reply: FastifyReply, status: number, error: string, message?: string) {
  return reply.code(status).send({ error, ...(message ? { message } : {}) });
}

/** The `param` an ApplicationFailure names (workflows/failures.ts puts it in `details[0]`). */
function failureParam(failure: ApplicationFailure): string | undefined {
  const details = failure.details?.[0] as { param?: unknown } | undefined;
  return typeof details?.param === 'string' ? details.param : undefined;
}

/**
 * Turns an error of a Temporal call (or of the intake's own validation) into one JSON answer. Messages sent are
 * Temporal's or the validator's, which name fields and workflow ids, never values; stacks stay in the log.
 */
export function replyWithError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof IntakeValidationError) return reply.code(400).send(invalidRequestBody(err.param, err.message));
  if (err instanceof WorkflowNotFoundError) return send(reply, 404, 'not_found', 'no such workflow');
  if (err instanceof QueryNotRegisteredError) return send(reply, 404, 'not_found', 'not a verification workflow');
  if (err instanceof WorkflowUpdateFailedError) {
    // The update's validator or handler refused: the service's 400 or the workflow's own check, naming the field.
    const cause = err.cause instanceof ApplicationFailure ? err.cause : undefined;
    const param = cause ? failureParam(cause) : undefined;
    const message = cause?.message ?? err.message;
    return reply.code(400).send(param ? invalidRequestBody(param, message) : { error: INVALID_REQUEST, message });
  }
  const name = err instanceof Error ? err.name : typeof err;
  const message = err instanceof Error ? err.message : undefined;
  if (
    err instanceof ServiceError ||
    err instanceof WorkflowUpdateRPCTimeoutOrCancelledError ||
    isGrpcServiceError(err)
  ) {
    request.log.error({ err: { name, message } }, 'Temporal call failed');
    return send(reply, 503, 'temporal_unavailable', 'Temporal did not answer; retry later');
  }
  request.log.error({ err: { name, message } }, 'intake request failed');
  return send(reply, 500, 'internal_error');
}
