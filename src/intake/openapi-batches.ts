import type { z } from 'zod';
import {
  BatchCancelResponse,
  BatchItemList,
  BatchList,
  BatchRefused,
  BatchStatusResponse,
  BatchSubmitBody,
  BatchSubmitted,
  ResubmitBody,
  ResubmitResponse,
} from './batch-schemas.js';
import { MAX_BATCH_ITEMS } from '../batches/limits.js';
import { RESULT_COLUMNS } from '../batches/results.js';
import { ITEM_OUTCOMES, RUNNING_STAGES } from '../../workflows/batch-types.js';

/** The batch schemas of the intake's OpenAPI document, and how each is read (requests as accepted, answers as sent). */
export const BATCH_SCHEMAS: Record<string, [z.ZodType, 'input' | 'output']> = {
  BatchSubmitRequest: [BatchSubmitBody, 'input'],
  BatchSubmitted: [BatchSubmitted, 'output'],
  BatchRefused: [BatchRefused, 'output'],
  BatchStatus: [BatchStatusResponse, 'output'],
  BatchList: [BatchList, 'output'],
  BatchItemList: [BatchItemList, 'output'],
  ResubmitRequest: [ResubmitBody, 'input'],
  ResubmitResponse: [ResubmitResponse, 'output'],
  BatchCancelResponse: [BatchCancelResponse, 'output'],
};

type Answer = (description: string, schemaId?: string) => unknown;
type Json = (schemaId: string) => unknown;

const batchId = {
  name: 'batchId',
  in: 'path',
  required: true,
  description: 'The batch id',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
};
const query = (name: string, schema: unknown, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
const paging = [
  query('limit', { type: 'integer', minimum: 1, maximum: 1000 }, 'Page size'),
  query('pageToken', { type: 'string' }, 'The `nextPageToken` of the previous page'),
];

/** The `/batches` paths (DESIGN §9). */
export function batchPaths(answer: Answer, json: Json, common: Record<string, unknown>): Record<string, unknown> {
  const upload = (description: string) => ({ schema: { type: 'string', description } });
  return {
    '/batches': {
      post: {
        operationId: 'submitBatch',
        summary: `Submit a batch of up to ${MAX_BATCH_ITEMS} verifications (JSON, or a CSV / JSONL file)`,
        description:
          'Every item is validated first; refused rows are answered by row and field (never values) and do not hold the others back unless `allOrNothing`. The batch is durable before the answer. A file upload takes its options in the query string (`batchId`, `tenant`, `retryWindow`, `allOrNothing`); its columns are those `eligibility batch` reads.',
        parameters: [
          query('batchId', batchId.schema, 'File uploads: the batch id'),
          query('tenant', { type: 'string' }, 'File uploads: the tenant'),
          query('retryWindow', { type: 'string' }, 'File uploads: e.g. 8h (default 24h)'),
          query('allOrNothing', { type: 'boolean' }, 'File uploads: start nothing when a row is invalid'),
        ],
        requestBody: {
          required: true,
          content: {
            ...(json('BatchSubmitRequest') as object),
            'text/csv': upload('A header row of the columns, then one patient per row (UTF-8)'),
            'application/x-ndjson': upload('One request object per line (UTF-8)'),
          },
        },
        responses: {
          '202': answer('Submitted: the batch starts its items', 'BatchSubmitted'),
          '200': answer(
            'This batch exists already (the same id or the same submission): nothing new',
            'BatchSubmitted',
          ),
          '400': answer(
            'A malformed file (empty, not UTF-8, bad quoting, unknown columns, too many rows), no valid item, or an invalid item with `allOrNothing`: nothing started',
            'BatchRefused',
          ),
          '413': answer('The body is too large'),
          ...common,
        },
      },
      get: {
        operationId: 'listBatches',
        summary: 'Batches, newest first',
        parameters: [query('tenant', { type: 'string' }, 'Only this tenant’s batches'), ...paging],
        responses: { '200': answer('Batches', 'BatchList'), '400': answer('Invalid query parameter'), ...common },
      },
    },
    '/batches/{batchId}': {
      get: {
        operationId: 'getBatch',
        summary: 'A batch’s state, counts (by stage and outcome, and by group) and times',
        parameters: [batchId],
        responses: { '200': answer('The batch', 'BatchStatus'), '404': answer('No such batch'), ...common },
      },
    },
    '/batches/{batchId}/items': {
      get: {
        operationId: 'listBatchItems',
        summary: 'A batch’s items (identifiers and state only), optionally at one stage or with one outcome',
        parameters: [
          batchId,
          query('stage', { enum: [...RUNNING_STAGES] }, 'Only items running at this stage'),
          query('outcome', { enum: [...ITEM_OUTCOMES] }, 'Only items that ended so'),
          query('superseded', { type: 'boolean' }, 'Include attempts a resubmission replaced'),
          ...paging,
        ],
        responses: { '200': answer('Items', 'BatchItemList'), '404': answer('No such batch'), ...common },
      },
    },
    '/batches/{batchId}/results': {
      get: {
        operationId: 'getBatchResults',
        summary: 'Every row’s result, as CSV (default) or JSONL',
        description: `Columns: ${RESULT_COLUMNS.join(', ')}. The one patient datum is the member id a discovery found.`,
        parameters: [batchId, query('format', { enum: ['csv', 'jsonl'] }, 'Default: CSV, or JSONL by Accept')],
        responses: {
          '200': {
            description: 'The results',
            content: { 'text/csv': upload('With a UTF-8 byte order mark'), 'application/x-ndjson': upload('JSONL') },
          },
          '404': answer('No such batch'),
          ...common,
        },
      },
    },
    '/batches/{batchId}/resubmit': {
      post: {
        operationId: 'resubmitBatch',
        summary: 'Start again the items whose latest attempt ended in the given outcomes (default failed)',
        parameters: [
          batchId,
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'A retried request with the same key is the same resubmission',
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
        ],
        requestBody: { required: false, content: json('ResubmitRequest') },
        responses: {
          '202': answer('A new round starts', 'ResubmitResponse'),
          '200': answer('A repeated request: that round was resubmitted already, nothing started', 'ResubmitResponse'),
          '400': answer('`param` names the invalid field'),
          '404': answer('No such batch'),
          '409': answer('The batch is cancelled (`batch_cancelled`) or has closed (`batch_closed`)'),
          ...common,
        },
      },
    },
    '/batches/{batchId}/cancel': {
      post: {
        operationId: 'cancelBatch',
        summary: 'Cancel a batch: nothing new starts, its running items are cancelled',
        parameters: [batchId],
        responses: {
          '202': answer('Cancelling', 'BatchCancelResponse'),
          '404': answer('No such batch'),
          '409': answer('Cancelled already (`batch_cancelled`) or closed (`batch_closed`)'),
          ...common,
        },
      },
    },
  };
}
