import { z } from 'zod';
import { tenantsToList } from '../../../src/access/tenancy.js';
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
  BatchItem,
  BatchItemsQuery,
  BatchListQuery,
  BatchResultsQuery,
  BatchStatusResponse,
  type BatchStatus,
} from '../../../src/batches/schemas.js';
import { audited } from '../audit.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { ownedBatch } from '../../../src/access/owned-object.js';
import { scopeOf } from '../owned.js';
import { answer, commonAnswers, TAGS } from '../openapi.js';
import { PageQuery, pageOf } from '../pagination.js';
import { ErrorResponse, invalidRequestBody } from '../schemas.js';

const BatchList = pageOf('batches', BatchStatusResponse);
const BatchItemList = pageOf('items', BatchItem);

/** A results export reads every item's close event: far longer than one request's usual Temporal deadline. */
const RESULTS_TIMEOUT_MS = 10 * 60_000;

export function batchStatus(view: BatchView): BatchStatus {
  const { lastResubmission: _l, phase: _p, ...rest } = view;
  return { ...rest, groups: progressGroups(view.counts) };
}

/**
 * `GET /batches`, `GET /batches/:batchId`, `…/items`, `…/results`. Status and lists read the batch's memo and
 * visibility only (no query to any workflow, no patient data); results also read each closed item's result, and hold
 * the one patient datum a discovery finds (the member id), to the authenticated caller only.
 */
export function readBatchRoutes(app: IntakeApp, deps: IntakeDeps): void {
  const access = { scope: 'batches:read' } as const;
  const noPatientData = { none: 'memo and visibility only: counts, states and identifiers, no patient data' };
  const invalid = answer('`param` names the invalid parameter', ErrorResponse);
  const noBatch = answer('No such batch (or another tenant’s)', ErrorResponse);
  app.get(
    '/batches',
    {
      config: { access, owns: 'own-tenant', audit: noPatientData },
      schema: {
        operationId: 'listBatches',
        tags: [TAGS.batches.name],
        summary: 'List batches, newest first, with their counts (no patient data)',
        querystring: BatchListQuery.extend(PageQuery.shape),
        response: { 200: answer('A page of batches', BatchList), 400: invalid, ...commonAnswers },
      },
    },
    async (request, reply) => {
      const { limit, pageToken } = request.query;
      // A client of one tenant lists that tenant's batches only: another tenant named leaves none.
      const tenant = tenantsToList(scopeOf(request), request.query.tenant);
      const page = await withDeadline(deps, () =>
        listBatches(deps.client, {
          pageSize: limit,
          ...(tenant !== undefined ? { tenant } : {}),
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      return reply.send({ ...page, batches: page.batches.map(batchStatus) });
    },
  );

  app.get(
    '/batches/:batchId',
    {
      config: { access, owns: 'batch', audit: noPatientData },
      schema: {
        operationId: 'getBatch',
        tags: [TAGS.batches.name],
        summary: 'A batch’s state and counts',
        params: BatchIdParams,
        response: { 200: answer('The batch', BatchStatusResponse), 400: invalid, 404: noBatch, ...commonAnswers },
      },
    },
    async (request, reply) => reply.send(batchStatus(ownedBatch(request))),
  );

  app.get(
    '/batches/:batchId/items',
    {
      config: {
        access,
        owns: 'batch',
        audit: { none: 'visibility only: item identifiers and stages, no patient data' },
      },
      schema: {
        operationId: 'listBatchItems',
        tags: [TAGS.batches.name],
        summary:
          'A page of a batch’s items in row order, by stage or outcome (identifiers and stages only: no patient data)',
        description:
          'Items in row order: the order of the submitted file (its rows numbered from 1), a row’s attempts by round. ' +
          'The order holds across pages: `nextPageToken` continues after the last row shown, while items move on.',
        params: BatchIdParams,
        querystring: BatchItemsQuery.extend(PageQuery.shape),
        response: {
          200: answer('A page of items, in row order', BatchItemList),
          400: answer('`param` names the invalid parameter; `stage` and `outcome` together are refused', ErrorResponse),
          404: noBatch,
          ...commonAnswers,
        },
      },
    },
    async (request, reply) => {
      const { batchId } = request.params;
      const { stage, outcome, limit, pageToken, superseded } = request.query;
      if (stage && outcome)
        return reply.code(400).send(invalidRequestBody('outcome', 'give stage or outcome, not both'));
      const page = await withDeadline(deps, () =>
        listBatchItems(deps.client, batchId, {
          pageSize: limit,
          ...(stage ? { stage } : {}),
          ...(outcome ? { outcome } : {}),
          ...(pageToken ? { pageToken } : {}),
          ...(superseded ? { superseded } : {}),
        }),
      );
      return reply.send(page);
    },
  );

  const file = (description: string) => ({ description, schema: z.string() });
  app.get(
    '/batches/:batchId/results',
    {
      config: { access, owns: 'batch', audit: 'batch.results' },
      schema: {
        operationId: 'getBatchResults',
        tags: [TAGS.batches.name],
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
      const { pages } = ownedBatch(request);
      const rows = await deps.client.withDeadline(Date.now() + RESULTS_TIMEOUT_MS, () =>
        batchResults(deps.client, batchId, pages, deps.payers),
      );
      await audited(deps.access, request, { fields: resultPatientFields(rows) });
      request.log.info({ batchId, rows: rows.length, format }, 'batch results exported');
      return reply
        .header('content-type', RESULTS_MEDIA_TYPE[format])
        .header('content-disposition', `attachment; filename="batch-${batchId}-results.${format}"`)
        .header('cache-control', 'no-store')
        .send(format === 'csv' ? resultsCsv(rows) : resultsJsonl(rows));
    },
  );
}
