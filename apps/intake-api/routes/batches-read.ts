import type { FastifyInstance, FastifyReply } from 'fastify';
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
import { firstInvalidParam } from '../../../src/contract/index.js';
import {
  BatchIdParams,
  BatchItemsQuery,
  BatchListQuery,
  BatchResultsQuery,
  type BatchStatus,
} from '../../../src/batches/schemas.js';
import { audit, principalOf } from '../access.js';
import { ownBatch } from '../tenancy.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { invalidRequestBody } from '../schemas.js';

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
export function readBatchRoutes(app: FastifyInstance, deps: IntakeDeps): void {
  const read = { config: { scope: 'batches:read' as const } };
  app.get('/batches', read, async (request, reply) => {
    const query = BatchListQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(query.error)));
    const { limit, pageToken } = query.data;
    // A client of one tenant lists that tenant's batches, whatever it asks for.
    const tenant = principalOf(request).tenant ?? query.data.tenant;
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
  });

  app.get('/batches/:batchId', read, async (request, reply) => {
    const params = BatchIdParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(params.error)));
    try {
      const view = await withDeadline(deps, () => ownBatch(deps, request, params.data.batchId));
      return view ? reply.send(batchStatus(view)) : notFound(reply, params.data.batchId);
    } catch (err) {
      return replyWithError(request, reply, err);
    }
  });

  app.get('/batches/:batchId/items', read, async (request, reply) => {
    const params = BatchIdParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(params.error)));
    const query = BatchItemsQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(query.error)));
    const { batchId } = params.data;
    const { stage, outcome, limit, pageToken, superseded } = query.data;
    if (stage && outcome) return reply.code(400).send(invalidRequestBody('outcome', 'give stage or outcome, not both'));
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
  });

  app.get('/batches/:batchId/results', read, async (request, reply) => {
    const params = BatchIdParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(params.error)));
    const query = BatchResultsQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(query.error)));
    const { batchId } = params.data;
    const format: ResultsFormat =
      query.data.format ?? (request.headers.accept?.includes('application/x-ndjson') ? 'jsonl' : 'csv');
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
  });
}
