import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { API_KEY_HEADER } from './api-key.js';
import { ErrorResponse } from './schemas.js';
import { BATCH_SUBMISSION_EXAMPLE } from '../../src/batches/schemas.js';
import { eventWebhooks } from './event-schemas.js';
import { closeRequestObjects } from './openapi-strict.js';

export const OPENAPI_PATH = '/docs/openapi.json';

/** A documented answer: its description and its schema (also what Fastify serialises the answer with). */
export const answer = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The answers every route may give besides its own. */
export const commonAnswers = {
  401: answer(`Missing, wrong or revoked \`${API_KEY_HEADER}\``, ErrorResponse),
  403: answer("The client lacks this route's scope (`message` names it)", ErrorResponse),
  500: answer(
    'An internal error; `namespace_not_ready` names a search attribute the Temporal namespace lacks (run `eligibility setup`)',
    ErrorResponse,
  ),
  503: answer('Temporal is unreachable or did not answer in time; the same request can succeed later', ErrorResponse),
};

/** The answers of every route that reads a body (POST, PATCH), besides its own; its own 400 says more. */
export const bodyAnswers = {
  400: answer('The body is not valid JSON, or `param` names the field refused (an unknown one too)', ErrorResponse),
  413: answer('The body is larger than this route takes (`payload_too_large`)', ErrorResponse),
  415: answer('The body is not JSON (`unsupported_media_type`)', ErrorResponse),
};

type OpenApiObject = ReturnType<typeof jsonSchemaTransformObject>;
type Operations = Record<string, { responses?: Record<string, { headers?: unknown }> } | undefined>;

/** Every 503 of the document names its `Retry-After` header (a route's schema can say nothing about headers). */
function withRetryAfter(document: OpenApiObject): OpenApiObject {
  const paths = (document.paths ?? {}) as Record<string, Operations | undefined>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations ?? {})) {
      const unavailable = operation?.responses?.['503'];
      if (unavailable) {
        unavailable.headers = {
          'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
        };
      }
    }
  }
  return document;
}

/**
 * `POST /batches` also takes files, read row by row by its handler: the document names their media types. Its JSON
 * example is given here, since zod leaves examples out of a transforming schema's input form.
 */
function withUploads(document: OpenApiObject): OpenApiObject {
  const submit = document.paths?.['/batches']?.post as
    { requestBody?: { content?: Record<string, unknown> } } | undefined;
  const content = submit?.requestBody?.content;
  if (content) {
    content['application/json'] = { ...(content['application/json'] as object), example: BATCH_SUBMISSION_EXAMPLE };
    content['text/csv'] = {
      schema: {
        type: 'string',
        description: 'A header row of the request fields (dotted: `patient.lastName`), then one row per item',
      },
      example: 'id,payerId,patient.firstName,patient.lastName,patient.dateOfBirth,placeOfServiceCode,specialtyCode\n',
    };
    content['application/x-ndjson'] = {
      schema: { type: 'string', description: 'One verification request (as POST /verifications takes it) per line' },
    };
  }
  const upload = document.paths?.['/appointments/uploads']?.post as { requestBody?: unknown } | undefined;
  if (upload) {
    upload.requestBody = {
      required: true,
      content: {
        'text/csv': {
          schema: { type: 'string', description: 'A header row of the upload columns, then one appointment a row' },
          example:
            'appointmentRef,patientRef,firstName,lastName,dateOfBirth,memberId,payerId,dateOfService,specialtyCode,placeOfServiceCode\n',
        },
        'application/x-ndjson': {
          schema: { type: 'string', description: 'One appointment (POST /appointments with `appointmentRef`) a line' },
        },
      },
    };
  }
  return document;
}

/**
 * @fastify/swagger's options: the document is generated from the routes' schemas (fastify-type-provider-zod turns them
 * into JSON Schema 2020-12, OpenAPI 3.1's own dialect), and the named schemas become its components.
 */
export function intakeOpenApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'eligibility-orchestrator intake API',
        version: '0.1.0',
        description:
          'Starts verifications of benefits as Temporal workflows, shows their status and takes the input that pending runs ask for.',
      },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } } },
      security: [{ apiKey: [] }],
      // The outbound events (docs/integrating/events.md), from the one catalogue.
      webhooks: eventWebhooks(),
    },
    transform: jsonSchemaTransform,
    transformObject: (document) =>
      withUploads(closeRequestObjects(withRetryAfter(jsonSchemaTransformObject(document)))),
  };
}
