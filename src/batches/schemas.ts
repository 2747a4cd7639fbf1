import { z } from 'zod';
import {
  BatchIdSchema,
  BatchLabelSchema,
  BooleanFlag,
  MAX_BATCH_ITEMS,
  RetryWindowSchema,
  TenantSchema,
} from './limits.js';
import type { BatchView } from './describe.js';
import { PROGRESS_GROUPS, type ProgressGroup } from '../../workflows/shared/stages.js';
import type { BatchItemView } from './items.js';
import { describes } from '../contract/describes.js';
import {
  BATCH_STATE_TABLE,
  type BatchCounts,
  type BatchState,
  type ResubmitAnswer,
} from '../../workflows/batch/batch.js';
import { ITEM_OUTCOMES, RESUBMITTABLE_OUTCOMES, RUNNING_STAGES } from '../../workflows/shared/stages.js';

/**
 * The batch routes' bodies, parameters and answers (docs/integrating/batches.md). Items are validated one by one with
 * the contract (`validateSubmission`), so one bad row never refuses the others; these schemas check the envelope.
 */

const submissionOptions = {
  batchId: BatchIdSchema.optional().describe(
    'The batch id; without it, a digest of the submission, so the same submission sent again is the same batch',
  ),
  tenant: TenantSchema.optional(),
  retryWindow: RetryWindowSchema.optional(),
  label: BatchLabelSchema.optional(),
};

export const BatchSubmitBody = z
  .object({
    items: z
      .array(z.unknown())
      .min(1, 'give at least one item')
      .max(MAX_BATCH_ITEMS, `a batch takes at most ${MAX_BATCH_ITEMS} items`)
      .describe(`Verification requests, as POST /verifications takes them; at most ${MAX_BATCH_ITEMS}`),
    allOrNothing: z.boolean().optional().describe('Start nothing when any item is invalid (default false)'),
    ...submissionOptions,
  })
  .meta({ id: 'BatchSubmission' });

/**
 * An example submission for the document. It is given beside the schema rather than in it: zod leaves examples out of
 * the input form of a schema that transforms (`retryWindow` does).
 */
export const BATCH_SUBMISSION_EXAMPLE = {
  items: [
    {
      id: 'row-1',
      payerId: '60054',
      patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985' },
      placeOfServiceCode: '11',
      specialtyCode: 'PRC',
    },
  ],
  retryWindow: '8h',
  label: 'march-clinic-a',
};

/** A file upload's options travel in the query string. */
export const BatchUploadQuery = z.object({ ...submissionOptions, allOrNothing: BooleanFlag.optional() });

const InvalidRow = z.object({
  row: z.number().int().describe('1-based: the item’s index + 1, or the file’s data row'),
  line: z.number().int().optional().describe('The file line where the row starts'),
  param: z.string().describe('The offending field, as a dotted path'),
  message: z.string().describe('What was expected (never the value sent)'),
  callerId: z.string().optional().describe('The row’s caller id, when it gave a well-formed one'),
});

export const BatchSubmitted = z.object({
  batchId: z.string(),
  workflowId: z.string(),
  items: z.number().int().describe('Valid rows: the batch’s items'),
  pages: z.number().int(),
  invalid: z.array(InvalidRow).describe('Rows refused, not started'),
  duplicate: z.literal(true).optional().describe('The batch existed already: nothing new started'),
});

export const BatchRefused = z.object({
  error: z.string(),
  param: z.string().optional(),
  message: z.string(),
  invalid: z.array(InvalidRow).optional(),
});

export const BatchIdParams = z.object({ batchId: BatchIdSchema });

/** The filters of `GET /batches`; the route adds the page's (apps/intake-api/pagination.ts). */
export const BatchListQuery = z.object({ tenant: TenantSchema.optional() });

/** The filters of `GET /batches/:batchId/items`; the route adds the page's. */
export const BatchItemsQuery = z.object({
  stage: z.enum(RUNNING_STAGES).optional().describe('Only items running at this stage'),
  outcome: z.enum(ITEM_OUTCOMES).optional().describe('Only items that ended so'),
  superseded: BooleanFlag.optional().describe('Include attempts a resubmission replaced (default false)'),
});

export const BatchResultsQuery = z.object({
  format: z.enum(['csv', 'jsonl']).optional().describe('Default: from Accept (application/x-ndjson), else CSV'),
});

export const ResubmitBody = z
  .object({
    outcomes: z
      .array(z.enum(RESUBMITTABLE_OUTCOMES))
      .min(1)
      .default(['failed'])
      .describe('Items whose latest attempt ended so are started again (default: failed)'),
  })
  .meta({ id: 'ResubmitRequest', examples: [{ outcomes: ['failed'] }] });

const countsOf = <T extends readonly string[]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<T[number], z.ZodNumber>);

const BatchCountsSchema = describes<BatchCounts>()(
  z.object({
    items: z.number().int(),
    invalid: z.number().int(),
    duplicate: z.number().int(),
    notStarted: z.number().int(),
    skipped: z.number().int(),
    queued: z.number().int(),
    running: countsOf(RUNNING_STAGES),
    outcomes: countsOf(ITEM_OUTCOMES),
  }),
);

/** A batch as the API answers it: what followers see of it (its phase is in `state`), with its counts by group. */
export interface BatchStatus extends Omit<BatchView, 'lastResubmission' | 'phase'> {
  groups: Record<ProgressGroup, number>;
}

interface ResubmitAnswered extends ResubmitAnswer {
  batchId: string;
}

export const BatchStatusResponse = describes<BatchStatus>()(
  z.object({
    batchId: z.string(),
    workflowId: z.string(),
    label: z.string().optional().describe('What people call it (caller text; default the file’s name)'),
    submittedBy: z
      .string()
      .optional()
      .describe('Who submitted it: `client:<id>`, `api-key`, `cli:<name>`, `console:<name>`'),
    state: z
      .enum(Object.keys(BATCH_STATE_TABLE) as [BatchState, ...BatchState[]])
      .describe(
        'starting, running, settled (nothing on its way, but items waiting for a person or in their grace period have not ended: `groups` counts them), finished (every item has ended; open for resubmission until closesAt), cancelling, cancelled, closed, terminated, failed',
      ),
    status: z.string().describe('Temporal execution status of the batch workflow'),
    counts: BatchCountsSchema.describe('Each item once, by its latest attempt: the parts add up to items'),
    groups: countsOf(PROGRESS_GROUPS),
    pages: z.number().int(),
    tenant: z.string().optional(),
    retryWindowSeconds: z.number().int(),
    round: z.number().int().describe('Resubmission rounds so far'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    closesAt: z.iso.datetime().optional(),
    closedAt: z.iso.datetime().optional(),
  }),
);

export const BatchItem = describes<BatchItemView>()(
  z.object({
    row: z.number().int(),
    callerId: z.string().optional(),
    workflowId: z.string(),
    round: z.number().int(),
    stage: z.enum(RUNNING_STAGES).optional(),
    outcome: z.enum(ITEM_OUTCOMES).optional(),
    verificationId: z.string().optional(),
    payerId: z.string().optional(),
    discoveryId: z.string().optional(),
    startedAt: z.iso.datetime(),
    closedAt: z.iso.datetime().optional(),
    superseded: z.boolean(),
  }),
);

export const ResubmitResponse = describes<ResubmitAnswered>()(
  z.object({
    batchId: z.string(),
    round: z.number().int(),
    accepted: z.boolean().describe('false: that round was resubmitted already (a repeated request); nothing started'),
  }),
);

export const BatchCancelResponse = z.object({ batchId: z.string(), state: BatchStatusResponse.shape.state });
