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
import { PastDateOfServiceError, PatientsUnavailableError } from '../../src/patients/errors.js';
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

/** What a 404 says when its own message would repeat the path: the kind of object the route names, nothing more. */
const NO_SUCH: Partial<Record<Owned, string>> = {
  ...MISSING,
  workflow: 'no such workflow',
  batch: 'no such batch',
  endpoint: 'no such event endpoint',
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
  if (err instanceof IntakeValidationError) return new IntakeAnswer(400, invalidRequestBody(err.param, err.detail));
  if (err instanceof PastDateOfServiceError) return new IntakeAnswer(400, invalidRequestBody(err.param, err.message));
  if (err instanceof InvalidPageToken) return new IntakeAnswer(400, invalidRequestBody('pageToken', err.message));
  if (err instanceof PatientsUnavailableError) {
    return new IntakeAnswer(503, { error: 'patients_unavailable', message: err.message });
  }
  if (err instanceof BatchNotFoundError) return notFound(NO_SUCH.batch!);
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
      case FailureType.NothingToResubmit:
        return new IntakeAnswer(409, { error: 'nothing_to_resubmit', param: 'outcomes', message: failure.message });
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
  const owns = request.routeOptions.config.owns as Owned | undefined;
  const refused = refusal(error, owns);
  if (refused) return reply.code(refused.status).send(withoutPathValues(refused, request, owns));
  if (error.statusCode !== undefined) {
    const status = error.statusCode;
    // Fastify's own (parsing, size, media type): only the code is logged, a JSON parser's message quotes the body.
    request.log.warn({ code: error.code, status }, 'intake request failed');
    if (status === 413) return reply.code(413).send({ error: 'payload_too_large' });
    if (status === 415) return reply.code(415).send({ error: 'unsupported_media_type', message: 'send JSON' });
    if (status >= 400 && status < 500) return reply.code(400).send(unreadable(error.code));
    return reply.code(500).send({ error: 'internal_error' });
  }
  return answerTemporalError(request, reply, error);
}

/** Fastify's refusals of a request it could not read, each said in its own words (none quotes the request). */
const UNREADABLE: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'the body is empty; send a JSON value',
  FST_ERR_CTP_INVALID_JSON_BODY: 'the body is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'the body is not as long as its Content-Length says',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'a body needs a Content-Type (application/json)',
};
const unreadable = (code: string | undefined) =>
  invalidRequestBody('body', UNREADABLE[code ?? ''] ?? 'the request could not be read');

/**
 * No answer repeats what the path named (an id, however it got into a message): a 404 then says only which kind of
 * object is missing, any other answer names the parameter instead (`the workflowId has closed (completed); …`).
 * Values under 3 characters are left alone: repeating one discloses nothing, and they would match ordinary words.
 */
function withoutPathValues(
  answer: IntakeAnswer,
  request: FastifyRequest,
  owns: Owned | undefined,
): IntakeAnswer['body'] {
  const { body } = answer;
  const message = body.message;
  if (message === undefined) return body;
  const repeated = Object.entries((request.params ?? {}) as Record<string, unknown>).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === 'string' && entry[1].length >= 3 && message.includes(entry[1]),
  );
  if (repeated.length === 0) return body;
  if (answer.status === 404) return { ...body, message: NO_SUCH[owns ?? 'none'] ?? 'not found' };
  return { ...body, message: repeated.reduce((text, [name, value]) => text.replaceAll(value, `the ${name}`), message) };
}

/** The path's length bound (Fastify's `maxParamLength`): an id longer than any route takes, even percent-encoded. */
export const MAX_PATH_SEGMENT = 9000;

/**
 * Fastify's refusals before any route is found (`frameworkErrors`): a path segment over MAX_PATH_SEGMENT characters, or
 * a path that is not valid percent-encoding. A 400 in the API's shape, never quoting the path (Fastify's own does).
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.warn({ code: error.code }, 'intake request refused before routing');
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `an id in the path is longer than ${MAX_PATH_SEGMENT} characters`
      : 'the path is not valid percent-encoding';
  void reply.code(400).send({ error: INVALID_REQUEST, param: 'path', message });
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
