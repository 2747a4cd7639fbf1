import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_RETRY_WINDOW_SECONDS } from '../../../workflows/shared/activity-options.js';
import { BatchUploadError, readUpload } from '../../../src/batches/parse-upload.js';
import { contentBatchId, validateSubmission, type SubmittedRow } from '../../../src/batches/prepare.js';
import { submitBatch } from '../../../src/batches/submit.js';
import { INVALID_REQUEST } from '../../../src/contract/index.js';
import { BatchLabelSchema } from '../../../src/batches/limits.js';
import { BatchRefused, BatchSubmitBody, BatchSubmitted, BatchUploadQuery } from '../../../src/batches/schemas.js';
import { patientFieldsOfAll } from '../../../src/audit/patient-fields.js';
import { principalOf } from '../access.js';
import { audited } from '../audit.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { startTenant } from '../owned.js';
import { answer, commonAnswers, TAGS } from '../openapi.js';
import { ErrorResponse } from '../schemas.js';
import { jsonOrFileValidatorCompiler } from '../validation.js';
import { callerClient } from '../caller-client.js';

/**
 * 10,000 items of at most about 1.5 KB each (the intake's limits on every field), with room: the largest body a
 * batch submission may have. Other routes keep Fastify's 1 MB.
 */
export const BATCH_BODY_LIMIT = 20 * 1024 * 1024;

export const UPLOAD_TYPES = { 'text/csv': 'csv', 'application/x-ndjson': 'jsonl' } as const;

interface Submission {
  rows: SubmittedRow[];
  options: { batchId?: string; tenant?: string; retryWindow?: number; allOrNothing?: boolean; label?: string };
}

/** An upload's file name, from `Content-Disposition: …; filename="<name>"`, when it is a usable label. */
function uploadedFileName(request: FastifyRequest): string | undefined {
  const disposition = request.headers['content-disposition'];
  const name = typeof disposition === 'string' ? /filename="?([^";]+)"?/i.exec(disposition)?.[1]?.trim() : undefined;
  return name !== undefined && BatchLabelSchema.safeParse(name).success ? name : undefined;
}

/**
 * The rows and options of a request: a JSON body `{items, …}` (validated by the route's schema), or a file with its
 * options in the query string.
 */
function readSubmission(
  request: FastifyRequest,
  body: z.output<typeof BatchSubmitBody> | Buffer,
  query: z.output<typeof BatchUploadQuery>,
): Submission | { param: string; message: string } {
  if (Buffer.isBuffer(body)) {
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    try {
      const rows = readUpload(body, UPLOAD_TYPES[mediaType as keyof typeof UPLOAD_TYPES]);
      const label = query.label ?? uploadedFileName(request);
      return { rows, options: { ...query, ...(label !== undefined ? { label } : {}) } };
    } catch (err) {
      if (err instanceof BatchUploadError) return { param: 'body', message: err.message };
      throw err;
    }
  }
  // Options in the query string are for uploads; a JSON body carries its own.
  const given = Object.keys(query)[0];
  if (given !== undefined) return { param: given, message: 'with a JSON body, give options in the body' };
  const { items, ...options } = body;
  return { rows: items.map((request, i) => ({ row: i + 1, request })), options };
}

function refuse(
  reply: FastifyReply,
  param: string,
  message: string,
  invalid?: z.infer<typeof BatchSubmitted>['invalid'],
) {
  return reply.code(400).send({ error: INVALID_REQUEST, param, message, ...(invalid ? { invalid } : {}) });
}

/**
 * `POST /batches`: every row is validated first; the answer lists the refused rows (row, line, field; never values).
 * A refused row never holds the others back unless `allOrNothing`. The batch is durable (its pages and its workflow
 * started) before the answer: 202 with its id, or 200 `duplicate` when that batch exists already. A malformed file
 * (empty, not UTF-8, bad quoting, unknown columns, too many rows) is a 400 naming the problem, and starts nothing.
 */
export function submitBatchRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/batches',
    {
      bodyLimit: BATCH_BODY_LIMIT,
      config: { access: { scope: 'batches:write' }, owns: 'own-tenant', audit: 'batch.submit' },
      schema: {
        operationId: 'submitBatch',
        tags: [TAGS.batches.name],
        summary:
          'Submit a batch of verifications: JSON `{items}`, or a CSV or JSON Lines file with options in the query',
        body: BatchSubmitBody,
        querystring: BatchUploadQuery,
        response: {
          202: answer(
            'Submitted: the batch is durable and starts its items; `invalid` lists refused rows',
            BatchSubmitted,
          ),
          200: answer('This batch exists already (`duplicate`): nothing new started', BatchSubmitted),
          400: answer(
            'A malformed body or file, no valid item, or invalid rows with `allOrNothing`: `param` names the problem',
            BatchRefused,
          ),
          ...commonAnswers,
          403: answer(
            "The client lacks `batches:write`, or `tenant` names another tenant than the client's",
            ErrorResponse,
          ),
          413: answer(`Larger than ${BATCH_BODY_LIMIT / 1024 / 1024} MB`, ErrorResponse),
          415: answer('Not JSON, CSV (`text/csv`) or JSON Lines (`application/x-ndjson`)', ErrorResponse),
        },
      },
      // Uploaded files arrive as bytes and are read row by row; a JSON body is validated, strictly, by the schema.
      validatorCompiler: jsonOrFileValidatorCompiler,
    },
    async (request, reply) => {
      const submission = readSubmission(request, request.body, request.query);
      if ('param' in submission) return refuse(reply, submission.param, submission.message);
      const { valid, invalid } = validateSubmission(submission.rows, { sandbox: false });
      const { batchId: given, retryWindow, allOrNothing } = submission.options;
      const tenant = startTenant(request, submission.options.tenant);
      if (valid.length === 0) return refuse(reply, 'items', 'no valid item: nothing was started', invalid);
      if (allOrNothing && invalid.length > 0) {
        return refuse(reply, 'items', `${invalid.length} invalid (allOrNothing): nothing was started`, invalid);
      }
      const options = {
        ...(tenant ? { tenant } : {}),
        retryWindowSeconds: retryWindow ?? DEFAULT_RETRY_WINDOW_SECONDS,
        ...(deps.timing ? { timing: deps.timing } : {}),
      };
      const batchId = given ?? contentBatchId(valid, options);
      const submitted = await withDeadline(deps, () =>
        submitBatch(
          callerClient(deps, request),
          {
            batchId,
            valid,
            invalid,
            options,
            about: {
              ...(submission.options.label !== undefined ? { label: submission.options.label } : {}),
              submittedBy: principalOf(request).actor,
            },
          },
          { taskQueue: deps.taskQueue, ...(deps.batchTiming ? { timing: deps.batchTiming } : {}) },
        ),
      );
      request.log.info(
        { batchId, items: submitted.items, invalid: invalid.length, duplicate: submitted.duplicate },
        submitted.duplicate ? 'duplicate batch' : 'batch submitted',
      );
      await audited(deps.access, request, {
        batchId,
        tenant: tenant ?? null,
        fields: patientFieldsOfAll(valid.map((item) => item.request)),
        outcome: submitted.duplicate ? 'duplicate' : 'ok',
      });
      const { duplicate, ...rest } = submitted;
      const body: z.infer<typeof BatchSubmitted> = { ...rest, invalid, ...(duplicate ? { duplicate } : {}) };
      return reply
        .code(duplicate ? 200 : 202)
        .header('location', `/batches/${batchId}`)
        .send(body);
    },
  );
}
