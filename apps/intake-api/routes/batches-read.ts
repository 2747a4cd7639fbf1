import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { listBatches, type BatchView } from '../../../src/batches/describe.js';
import { progressGroups } from '../../../src/batches/groups.js';
import { listBatchItems } from '../../../src/batches/items.js';
import {
  RESULTS_MEDIA_TYPE,
  resultsCsv,
  resultsJsonl,
  type ResultsFormat,
} from '../../../src/batches/results-format.js';
import { batchResults, resultPatientFields } from '../../../src/batches/results.js';
import {
  BatchIdParams,
  BatchItemList,
  BatchItemsQuery,
  BatchList,
  BatchListQuery,
  BatchResultsQuery,
  BatchStatusResponse,
  type BatchStatus,
} from '../../../src/batches/schemas.js';
import { audit, principalOf } from '../access.js';
import { ownBatch } from '../tenancy.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { answer, commonAnswers } from '../openapi.js';
import { ErrorResponse, invalidRequestBody } from '../schemas.js';

/** A results export reads every item's close event: far longer than one request's usual Temporal deadline. */
const RESULTS_TIMEOUT_MS = 10 * 60_000;

export function batchStatus(view: BatchView): BatchStatus {
  const { lastResubmission: _l, phase: _p, ...rest } = view;
  return { ...rest, groups: progressGroups(view.counts) };
}

const notFound = (reply: FastifyReply, batchId: string) =>
  reply.code(404).send({ error: 'not_found', message: `no batch ${batchId}` });

/**
 * `GET /batches`, `GET /batches/:batchId`, `…/items`, `…/results`. Status and lists read the batch's memo and
 * visibility only (no query to any workflow, no patient data); results also read each closed item's result, and hold
 * the one patient datum a discovery finds (the member id), to the authenticated caller only.
 */
export function readBatchRoutes(app: IntakeApp, deps: IntakeDeps): void {
  const read = { config: { scope: 'batches:read' as const } };
  const invalid = answer('`param` names the invalid parameter', ErrorResponse);
  const noBatch = answer('No such batch (or another tenant’s)', ErrorResponse);
  app.get(
    '/batches',
    {
      ...read,
      schema: {
        operationId: 'listBatches',
        summary: 'List batches, newest first (memo and visibility only: no patient data)',
        querystring: BatchListQuery,
        response: { 200: answer('A page of batches', BatchList), 400: invalid, ...commonAnswers },
      },
    },
    async (request, reply) => {
      const { limit, pageToken } = request.query;
      // A client of one tenant lists that tenant's batches, whatever it asks for.
      const tenant = principalOf(request).tenant ?? request.query.tenant;
      try {
        const page = await withDeadline(deps, () =>
          listBatches(deps.client, {
            pageSize: limit,
            ...(tenant ? { tenant } : {}),
            ...(pageToken ? { pageToken } : {}),
          }),
        );
        return reply.send({ ...page, batches: page.batches.map(batchStatus) });
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );

  app.get(
    '/batches/:batchId',
    {
      ...read,
      schema: {
        operationId: 'getBatch',
        summary: 'A batch’s state and counts',
        params: BatchIdParams,
        response: { 200: answer('The batch', BatchStatusResponse), 400: invalid, 404: noBatch, ...commonAnswers },
      },
    },
    async (request, reply) => {
      const { batchId } = request.params;
      try {
        const view = await withDeadline(deps, () => ownBatch(deps, request, batchId));
        return view ? reply.send(batchStatus(view)) : notFound(reply, batchId);
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );

  app.get(
    '/batches/:batchId/items',
    {
      ...read,
      schema: {
        operationId: 'listBatchItems',
        summary: 'A page of a batch’s items, by stage or outcome (visibility only: no patient data)',
        params: BatchIdParams,
        querystring: BatchItemsQuery,
        response: { 200: answer('A page of items', BatchItemList), 400: invalid, 404: noBatch, ...commonAnswers },
      },
    },
    async (request, reply) => {
      const { batchId } = request.params;
      const { stage, outcome, limit, pageToken, superseded } = request.query;
      if (stage && outcome)
        return reply.code(400).send(invalidRequestBody('outcome', 'give stage or outcome, not both'));
      try {
        const page = await withDeadline(deps, async () => {
          const view = await ownBatch(deps, request, batchId);
          if (!view) return undefined;
          return listBatchItems(deps.client, batchId, {
            pageSize: limit,
            rounds: view.round,
            ...(stage ? { stage } : {}),
            ...(outcome ? { outcome } : {}),
            ...(pageToken ? { pageToken } : {}),
            ...(superseded ? { superseded } : {}),
          });
        });
        return page ? reply.send(page) : notFound(reply, batchId);
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );

  const file = (description: string) => ({ description, schema: z.string() });
  app.get(
    '/batches/:batchId/results',
    {
      ...read,
      schema: {
        operationId: 'getBatchResults',
        summary: 'Every item’s result, as CSV or JSON Lines (holds patient data; audited)',
        params: BatchIdParams,
        querystring: BatchResultsQuery,
        response: {
          200: {
            description: 'One row per item, in row order (a download: `Content-Disposition: attachment`)',
            content: {
              'text/csv': file('CSV with a header row'),
              'application/x-ndjson': file('One JSON object per line'),
            },
          },
          400: invalid,
          404: noBatch,
          ...commonAnswers,
        },
      },
    },
    async (request, reply) => {
      const { batchId } = request.params;
      const format: ResultsFormat =
        request.query.format ?? (request.headers.accept?.includes('application/x-ndjson') ? 'jsonl' : 'csv');
      try {
        const rows = await deps.client.withDeadline(Date.now() + RESULTS_TIMEOUT_MS, async () => {
          const view = await ownBatch(deps, request, batchId);
          return view ? batchResults(deps.client, batchId, view.pages) : undefined;
        });
        if (!rows) return notFound(reply, batchId);
        await audit(deps.access, request, {
          action: 'batch.results',
          batchId,
          fields: resultPatientFields(rows),
          outcome: 'ok',
        });
        request.log.info({ batchId, rows: rows.length, format }, 'batch results exported');
        return reply
          .header('content-type', RESULTS_MEDIA_TYPE[format])
          .header('content-disposition', `attachment; filename="batch-${batchId}-results.${format}"`)
          .header('cache-control', 'no-store')
          .send(format === 'csv' ? resultsCsv(rows) : resultsJsonl(rows));
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );
}
