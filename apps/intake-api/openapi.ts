import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_WAIT_SECONDS } from '../../src/temporal/await-settled.js';
import { API_KEY_HEADER } from './api-key.js';
import { ErrorResponse } from './schemas.js';
import { BATCH_SUBMISSION_EXAMPLE } from '../../src/batches/schemas.js';
import { eventWebhooks } from './event-schemas.js';
import { closeRequestObjects } from './openapi-strict.js';
import { MAX_PATH_SEGMENT } from './errors.js';

/**
 * The resources the operations are grouped by, in the reference's order: each route names one in its `tags`, and the
 * OpenAPI test refuses an operation without a declared one (generated clients make one class per tag).
 */
export const TAGS = {
  verifications: {
    name: 'Verifications',
    description:
      "A verification of one patient's benefits at one payer: start it (and wait for its answer with `Prefer: wait`), follow it, find a patient's, answer a run that asks for input, decide a review, cancel it",
  },
  batches: {
    name: 'Batches',
    description:
      'Many verifications submitted at once, as JSON or a CSV or JSON Lines file: their counts, items and results',
  },
  patients: {
    name: 'Patients',
    description:
      'The practice’s patients: their details, visits and coverage timeline, found by the practice’s own reference',
  },
  appointments: {
    name: 'Appointments',
    description: 'Visits booked for a patient: each is verified ahead of its day, and again when it moves',
  },
  coverageChanges: {
    name: 'Coverage changes',
    description: 'What changed in a patient’s coverage between two checks, until someone marks it seen',
  },
  eventEndpoints: {
    name: 'Event endpoints',
    description:
      'Where the API sends its signed events (see `webhooks`): subscribe, rotate secrets, follow and redeliver',
  },
  reference: { name: 'Reference', description: 'This document' },
} as const;
export type Tag = (typeof TAGS)[keyof typeof TAGS]['name'];

/**
 * `Prefer: wait=<seconds>` (RFC 7240), declared on the routes that honour it (prefer-wait.ts reads it) so that "Try it
 * out" and generated clients can send it; their 200 and 202 then name `Preference-Applied` (withPreferenceApplied).
 */
export const PreferWaitHeaders = z.looseObject({
  prefer: z
    .string()
    .optional()
    .describe(
      `\`wait=<seconds>\` (at most ${MAX_WAIT_SECONDS}): answer once the verification is settled, or when the time is up. A preference this API does not understand is ignored, never refused`,
    )
    .meta({ example: 'wait=10' }),
});

/** A documented answer: its description and its schema (also what Fastify serialises the answer with). */
export const answer = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The answers every route may give besides its own. */
export const commonAnswers = {
  401: answer(`Missing, wrong or revoked \`${API_KEY_HEADER}\``, ErrorResponse),
  403: answer("The client lacks this route's scope (`message` names it)", ErrorResponse),
  429: answer(
    'Too many wrong keys from this address (`too_many_requests`): no key is checked until `Retry-After` has passed',
    ErrorResponse,
  ),
  500: answer(
    'An internal error, not worth retrying as is; `namespace_not_ready`: the installation is not set up yet (its operator runs `eligibility setup`)',
    ErrorResponse,
  ),
  503: answer(
    'The verification engine is unreachable or did not answer in time (`temporal_unavailable`); the same request can succeed later',
    ErrorResponse,
  ),
};

/** The answers of every route that reads a body (POST, PATCH), besides its own; its own 400 says more. */
export const bodyAnswers = {
  400: answer(
    'The body is empty, not valid JSON, or holds a `__proto__` or `constructor.prototype` key (`param` `body`), or `param` names the field refused (an unknown one too)',
    ErrorResponse,
  ),
  413: answer('The body is larger than this route takes (`payload_too_large`)', ErrorResponse),
  415: answer('The body is not JSON (`unsupported_media_type`)', ErrorResponse),
};

type OpenApiObject = ReturnType<typeof jsonSchemaTransformObject>;
type Operations = Record<string, { responses?: Record<string, { headers?: unknown }> } | undefined>;

/** Every 429 and 503 of the document names its `Retry-After` header (a route's schema can say nothing about headers). */
function withRetryAfter(document: OpenApiObject): OpenApiObject {
  const paths = (document.paths ?? {}) as Record<string, Operations | undefined>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations ?? {})) {
      for (const status of ['429', '503']) {
        const later = operation?.responses?.[status];
        if (later) {
          later.headers = {
            'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
          };
        }
      }
    }
  }
  return document;
}

type Components = Record<string, { examples?: unknown[] } | undefined>;

/**
 * zod leaves a schema's examples out of its input form when the schema transforms (a date of birth given as ISO is
 * handed on as MM/DD/YYYY): a body's component (`…Input`) takes its examples from the same schema's output form.
 */
function withInputExamples(document: OpenApiObject): OpenApiObject {
  const schemas = (document as { components?: { schemas?: Components } }).components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    const examples = name.endsWith('Input') ? schemas[name.slice(0, -'Input'.length)]?.examples : undefined;
    if (schema && examples && !schema.examples) schema.examples = examples;
  }
  return document;
}

type Headed = { parameters?: { in: string; name: string }[]; responses?: Record<string, { headers?: object }> };

/** The 200 and 202 of an operation that takes `Prefer` name the `Preference-Applied` header it answers with. */
function withPreferenceApplied(document: OpenApiObject): OpenApiObject {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Headed | undefined> | undefined>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations ?? {})) {
      if (!operation?.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'prefer')) continue;
      for (const status of ['200', '202']) {
        const answered = operation.responses?.[status];
        if (!answered) continue;
        answered.headers = {
          ...answered.headers,
          'Preference-Applied': {
            description: 'Sent when the `Prefer: wait` was honoured: the wait it applied, e.g. `wait=10`',
            schema: { type: 'string', pattern: '^wait=\\d+$' },
          },
        };
      }
    }
  }
  return document;
}

type Described = { description?: string };
type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: object } }> };
  responses?: Record<string, Described>;
};

/**
 * Refusals no parameter's schema can state, said in each 400 that may give them: an over-long id in the path (refused
 * before routing, so no route's schema sees it), and a page token this list did not hand out (opaque to the caller).
 */
function withUnstatedRefusals(document: OpenApiObject): OpenApiObject {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation | undefined> | undefined>;
  const schemas =
    (document as { components?: { schemas?: Record<string, { properties?: object }> } }).components?.schemas ?? {};
  const bodyFields = (operation: Operation) => {
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    const named = schema?.$ref ? schemas[schema.$ref.split('/').pop()!] : schema;
    return Object.keys(named?.properties ?? {});
  };
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations ?? {})) {
      const refused = operation?.responses?.['400'];
      if (!operation || !refused) continue;
      const names = [...(operation.parameters ?? []).map((p) => p.name), ...bodyFields(operation)];
      const more: string[] = [];
      if (operation.parameters?.some((p) => p.in === 'path')) {
        more.push(`a path segment over ${MAX_PATH_SEGMENT} characters (percent-encoded) has \`param\` \`path\``);
      }
      if (names.includes('pageToken')) more.push('a `pageToken` this list did not hand out for these filters');
      if (more.length > 0) refused.description = `${refused.description ?? ''}. Also refused: ${more.join('; ')}`;
    }
  }
  return document;
}

/** The longest retry window a batch takes (src/batches/limits.ts; the OpenAPI test holds the two equal). */
export const MAX_RETRY_WINDOW_SECONDS = 7 * 24 * 3600;

/**
 * `retryWindow` as `POST /batches` takes it, in its body and its query string: seconds, or a duration such as `8h`
 * (zod leaves a transforming branch out of a schema's input form, which left only an unbounded integer).
 */
const RETRY_WINDOW = {
  description:
    'How long failing service calls of the items are retried: seconds, or e.g. 8h (default 24h; at most 7 days)',
  anyOf: [
    { type: 'integer', minimum: 1, maximum: MAX_RETRY_WINDOW_SECONDS },
    { type: 'string', pattern: '^0*[1-9]\\d*(\\.\\d+)?[smhd]?$' },
  ],
};

/**
 * `POST /batches` also takes files, read row by row by its handler: the document names their media types. Its JSON
 * example is given here, since zod leaves examples out of a transforming schema's input form.
 */
function withUploads(document: OpenApiObject): OpenApiObject {
  const submit = document.paths?.['/batches']?.post as
    | { requestBody?: { content?: Record<string, unknown> }; responses?: Record<string, { description?: string }> }
    | undefined;
  // Which media type the query options go with, which no parameter's schema can say.
  const refused = submit?.responses?.['400'];
  if (refused)
    refused.description = `${refused.description}. The query options go with a file; with a JSON body they go in it`;
  const content = submit?.requestBody?.content;
  const submission = (
    document as { components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> } }
  ).components?.schemas?.BatchSubmissionInput?.properties;
  if (submission?.retryWindow) submission.retryWindow = RETRY_WINDOW;
  for (const parameter of (submit as { parameters?: { name: string; schema?: unknown }[] } | undefined)?.parameters ??
    []) {
    if (parameter.name === 'retryWindow') parameter.schema = { anyOf: RETRY_WINDOW.anyOf };
  }
  if (content) {
    content['application/json'] = { ...(content['application/json'] as object), example: BATCH_SUBMISSION_EXAMPLE };
    content['text/csv'] = {
      schema: {
        type: 'string',
        minLength: 1,
        description:
          'A header row of the columns of docs/integrating/intake-files.md (`id`, `firstName`, `dateOfBirth`…), then one row per item; a file without rows is refused (400)',
      },
      example:
        'id,firstName,lastName,dateOfBirth,memberId,payerId,placeOfServiceCode,specialtyCode\n' +
        'intake-2026-0001,Ada,Lovelace,12/10/1985,M1234567,60054,11,PRC\n',
    };
    content['application/x-ndjson'] = {
      schema: {
        type: 'string',
        minLength: 1,
        description: 'One verification request (as POST /verifications takes it) per line',
      },
    };
  }
  const upload = document.paths?.['/appointments/uploads']?.post as { requestBody?: unknown } | undefined;
  if (upload) {
    upload.requestBody = {
      required: true,
      content: {
        'text/csv': {
          schema: {
            type: 'string',
            minLength: 1,
            description:
              'A header row of the upload columns, then one appointment a row; a file without rows is refused (400)',
          },
          example:
            'appointmentRef,patientRef,firstName,lastName,dateOfBirth,memberId,payerId,dateOfService,specialtyCode,placeOfServiceCode\n' +
            'A-20261214-0900,MRN-00042,Ada,Lovelace,12/10/1985,M1234567,60054,2026-12-14,PRC,11\n',
        },
        'application/x-ndjson': {
          schema: {
            type: 'string',
            minLength: 1,
            description: 'One appointment (POST /appointments with `appointmentRef`) a line',
          },
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
          'Verifies patients’ benefits with their payers: start a verification or a batch of them, follow them, answer the input a payer’s run asks for, book appointments that are verified ahead of the visit, and receive signed events. Every operation needs the `x-api-key` header but this document.',
      },
      tags: Object.values(TAGS).map((tag) => ({ ...tag })),
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } } },
      security: [{ apiKey: [] }],
      // The outbound events (docs/integrating/events.md), from the one catalogue.
      webhooks: eventWebhooks(),
    },
    transform: jsonSchemaTransform,
    transformObject: (document) =>
      withUploads(
        withUnstatedRefusals(
          closeRequestObjects(
            withPreferenceApplied(withRetryAfter(withInputExamples(jsonSchemaTransformObject(document)))),
          ),
        ),
      ),
  };
}
