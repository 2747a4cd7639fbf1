import {
  ApplicationFailure,
  QueryNotRegisteredError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';
import { AppointmentUploadError } from '../../src/appointment-uploads/read-upload.js';
import { BatchNotFoundError } from '../../src/batches/actions.js';
import { INVALID_REQUEST } from '../../src/contract/index.js';
import { EndpointRefused } from '../../src/events/endpoint-rules.js';
import { InvalidPageToken } from '../../src/pages.js';
import { PatientsUnavailableError } from '../../src/patients/errors.js';
import {
  grpcCode,
  grpcDetails,
  missingSearchAttribute,
  missingSearchAttributeMessage,
  temporalFailureKind,
} from '../../src/temporal/errors.js';
import { describeRejection } from '../../src/temporal/rejection.js';
import { IntakeValidationError } from '../../src/temporal/start-verification.js';
import { FailureType } from '../../workflows/shared/failure-types.js';
import { PatientRefusal } from '../../workflows/patient/patient.js';
import type { Owned } from './route-rules.js';
import { invalidRequestBody } from './schemas.js';

/**
 * Seconds a caller is asked to wait when Temporal is unavailable. The process reconnects within about a second of the
 * server's return (src/temporal/client.ts), so a short wait is enough and a well-behaved caller is not held back long.
 */
export const RETRY_AFTER_SECONDS = 2;

/** An answer a handler or a hook gives by throwing it: the error handler sends its status and body as they are. */
export class IntakeAnswer extends Error {
  override name = 'IntakeAnswer';
  constructor(
    readonly status: number,
    readonly body: { error: string; param?: string; message?: string } & Record<string, unknown>,
  ) {
    super(body.message ?? body.error);
  }
}

export const notFound = (message: string) => new IntakeAnswer(404, { error: 'not_found', message });

/** A body naming a tenant the client does not act for. */
export const forbiddenTenant = (message: string) =>
  new IntakeAnswer(403, { error: 'forbidden', param: 'tenant', message });

/** What a route's 404 calls a workflow that does not exist: a patient's routes name a patient. */
const MISSING: Partial<Record<Owned, string>> = {
  patient: 'no such patient',
  appointment: 'no such patient',
  'coverage-change': 'no such patient',
};

function send(reply: FastifyReply, status: number, error: string, message?: string) {
  return reply.code(status).send({ error, ...(message ? { message } : {}) });
}

/**
 * The field a request's validation error names, as `firstInvalidParam` (src/contract) names it from the zod error:
 * its dotted path, the first unknown key of a strict object, or `body` for the whole of it.
 */
function invalidParam(issue: ZodFastifySchemaValidationError): string {
  const path = issue.instancePath === '/' ? [] : issue.instancePath.slice(1).split('/');
  const unknownKey =
    issue.keyword === 'unrecognized_keys' ? (issue.params.keys as string[] | undefined)?.[0] : undefined;
  if (unknownKey !== undefined) path.push(unknownKey);
  return path.length === 0 ? 'body' : path.join('.');
}

/** The refusals of the product's own rules, each one answer; undefined for any other error. */
function refusal(err: unknown, owns: Owned | undefined): IntakeAnswer | undefined {
  if (err instanceof IntakeAnswer) return err;
  if (err instanceof IntakeValidationError) return new IntakeAnswer(400, invalidRequestBody(err.param, err.message));
  if (err instanceof InvalidPageToken) return new IntakeAnswer(400, invalidRequestBody('pageToken', err.message));
  if (err instanceof PatientsUnavailableError) {
    return new IntakeAnswer(503, { error: 'patients_unavailable', message: err.message });
  }
  if (err instanceof BatchNotFoundError) return notFound(err.message);
  if (err instanceof AppointmentUploadError) {
    return new IntakeAnswer(400, { error: INVALID_REQUEST, param: 'body', message: err.message });
  }
  if (err instanceof EndpointRefused) {
    if (err.kind === 'disabled') return new IntakeAnswer(409, { error: 'endpoint_disabled', message: err.reason });
    if (err.kind === 'not-found') return notFound(err.reason);
    if (err.kind === 'forbidden')
      return new IntakeAnswer(403, { error: 'forbidden', param: err.field, message: err.reason });
    return new IntakeAnswer(400, invalidRequestBody(err.field, err.reason));
  }
  if (err instanceof WorkflowNotFoundError) return notFound(MISSING[owns ?? 'none'] ?? 'no such workflow');
  if (err instanceof QueryNotRegisteredError) return notFound('not a verification workflow');
  const failure = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
  if (failure instanceof ApplicationFailure) {
    switch (failure.type) {
      case PatientRefusal.NotFound:
        return notFound('no such appointment');
      case PatientRefusal.Cancelled:
        return new IntakeAnswer(409, { error: 'appointment_cancelled', param: 'appointmentId', message: 'cancelled' });
      case FailureType.BatchCancelled:
        return new IntakeAnswer(409, { error: 'batch_cancelled', message: failure.message });
      case FailureType.NotAwaitingReview:
        return new IntakeAnswer(409, { error: 'not_awaiting_review', message: failure.message });
    }
  }
  if (err instanceof WorkflowUpdateFailedError) {
    const { param, reason } = describeRejection(err);
    return new IntakeAnswer(
      400,
      param ? invalidRequestBody(param, reason) : { error: INVALID_REQUEST, message: reason },
    );
  }
  return undefined;
}

/**
 * Every error of the intake API, as one JSON answer (the app's one error handler). A request that can never succeed is
 * a 400, whoever refused it (the route's schema, the intake's validation, a workflow's update validator, the service,
 * Temporal itself); 503 with `Retry-After` is only for a Temporal that is unreachable or too slow, where the same
 * request can succeed later. Messages sent name fields and ids, never values; stacks stay in the log.
 */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // A request its route's schema refused: 400 naming the field, never its value (zod's messages say what was expected).
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0]!;
    return reply.code(400).send(invalidRequestBody(invalidParam(issue), issue.message));
  }
  const refused = refusal(error, request.routeOptions.config.owns as Owned | undefined);
  if (refused) return reply.code(refused.status).send(refused.body);
  if (error.statusCode !== undefined) {
    const status = error.statusCode;
    // Fastify's own (parsing, size, media type): only the code is logged, a JSON parser's message quotes the body.
    request.log.warn({ code: error.code, status }, 'intake request failed');
    if (status === 413) return reply.code(413).send({ error: 'payload_too_large' });
    if (status === 415) return reply.code(415).send({ error: 'unsupported_media_type', message: 'send JSON' });
    if (status >= 400 && status < 500)
      return reply.code(400).send(invalidRequestBody('body', 'the body is not valid JSON'));
    return reply.code(500).send({ error: 'internal_error' });
  }
  return answerTemporalError(request, reply, error);
}

/** A failed Temporal call (or anything else unforeseen). */
function answerTemporalError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
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
