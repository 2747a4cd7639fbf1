import { z } from 'zod';
import {
  CallerId,
  DiscoveryStatus,
  INVALID_REQUEST,
  IntakeRequestV1,
  IntakeRequestV2,
  RunInput,
  RunUpdateResponse,
  Uuid,
} from '../../src/contract/index.js';
import { TenantSchema } from '../../src/temporal/tenant.js';
import type { VerificationSummary } from '../../src/temporal/list-verifications.js';
import {
  REVIEW_ACTIONS,
  RUN_STATES,
  type ReviewAnswer,
  type ReviewDecision,
  type VerificationStatus,
} from '../../workflows/verification/verification.js';
import { STAGES } from '../../workflows/shared/stages.js';
import { jsonDepth } from './json-depth.js';
import { PageQuery, pageOf } from './pagination.js';
import { describes } from '../../src/contract/describes.js';

/**
 * The intake API's bodies, parameters and answers, declared by the routes: Fastify validates requests with them
 * (fastify-type-provider-zod; the verification itself is validated by the contract's `validateIntake`, inside
 * `startVerification`), serialises answers with them, and @fastify/swagger generates the OpenAPI document from them.
 * A schema with an `id` is a named component of that document.
 *
 * What the workflows exchange (the status query, a review decision) and what visibility lists are defined once, as
 * TypeScript in `workflows/verification/verification.ts` and `src/temporal/list-verifications.ts`: workflow code may not import zod. The
 * schemas here describe those types for the API and its document, and `describes` makes the build fail when a schema
 * and its type drift apart, in either direction.
 */

export const Stage = z.enum(STAGES).meta({ id: 'Stage' });

/** What `POST /verifications` accepts, as a document can say it: `version` may be left out (v2). */
/**
 * Not part of the service's request: the submitter's tenant, its fairness key in the task queue
 * (docs/developing/traffic.md).
 */
const IntakeTenant = { tenant: TenantSchema.optional() };

/** The contract's rules across fields (`requireOneOf`), as the document states them. */
const PAYER_OR_DISCOVERY = { anyOf: [{ required: ['payerId'] }, { required: ['discoveryId'] }] };
const MEMBER_OR_DISCOVERY = { anyOf: [{ required: ['memberId'] }, { required: ['discoveryId'] }] };

export const VerificationIntakeRequest = z
  .union([
    IntakeRequestV2.extend({ version: z.literal('v2').optional(), ...IntakeTenant }).meta(PAYER_OR_DISCOVERY),
    IntakeRequestV1.extend(IntakeTenant).meta({ allOf: [PAYER_OR_DISCOVERY, MEMBER_OR_DISCOVERY] }),
  ])
  .meta({
    id: 'VerificationIntakeRequest',
    description: 'A verification request; payerId (or discoveryId) is required, v1 also needs memberId or discoveryId',
    examples: [
      {
        id: 'intake-2026-0001',
        payerId: '60054',
        patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1985-12-10', memberId: 'M1234567' },
        placeOfServiceCode: '11',
        specialtyCode: 'PRC',
      },
    ],
  });

export const ErrorResponse = z
  .object({
    error: z
      .string()
      .describe(
        '`invalid_request_error`, `unauthorized`, `not_found`, `workflow_closed`, `not_awaiting_review`, `temporal_unavailable`, …',
      ),
    param: z.string().optional().describe('The offending field, as a dotted path'),
    message: z.string().optional(),
    outcome: z
      .string()
      .optional()
      .describe('With `workflow_closed`: how the workflow ended (`completed`, `cancelled`, `abandoned`, …)'),
    state: z.string().optional().describe('With `batch_closed`: the state the batch closed in'),
  })
  .meta({ id: 'ErrorResponse' });

const DiscoverySummary = z.object({
  discoveryId: z.string(),
  status: DiscoveryStatus,
  successful: z.boolean(),
  payerId: z.string().nullable(),
  payerName: z.string().nullable(),
});
const RunSummary = z.object({
  flowRunId: z.string(),
  state: z.enum(RUN_STATES),
  serviceStatus: z.string().optional(),
  requested: z
    .object({ fields: z.array(z.string()).optional(), description: z.string().optional() })
    .optional()
    .describe("What the run asks for, when the service's run event said so"),
});
const LastError = z.object({
  type: z.string(),
  message: z.string(),
  param: z.string().optional(),
  flowRunId: z.string().optional(),
});

const ReviewStatus = z.object({
  reason: z.string().describe('Why the outcome of the v1 creation is unknown'),
  since: z.iso.datetime(),
  decideBy: z.iso.datetime().describe('Without a decision by then the verification ends as `timed-out`'),
});

/** The workflow's `status` query: identifiers and progress, no patient data. */
export const VerificationStatusResponse = describes<VerificationStatus>()(
  z.object({
    stage: Stage,
    callerId: CallerId.optional(),
    version: z.enum(['v1', 'v2']),
    payerId: z.string().optional(),
    specialtyCode: z.string().optional(),
    discoveryId: z.string().optional(),
    verificationId: z.string().optional(),
    discovery: DiscoverySummary.optional(),
    runs: z.array(RunSummary),
    pendingRuns: z.array(z.string()),
    review: ReviewStatus.optional().describe('Present in stage `needs-review`: decide with POST …/review'),
    lastError: LastError.optional(),
  }),
).meta({ id: 'VerificationStatus' });

export const StartedResponse = z
  .object({
    workflowId: z.string(),
    duplicate: z.literal(true).optional().describe('Present when the caller id was seen before: nothing new started'),
    status: VerificationStatusResponse.optional().describe(
      'Present when `Prefer: wait` was asked and the verification settled within it (created, awaiting input, needs review, or an outcome)',
    ),
  })
  .meta({ id: 'StartedResponse' });

export const WorkflowIdParams = z.object({
  workflowId: z.string().min(1).max(1000).describe('e.g. `verification-<caller id>`'),
});
export const RunInputParams = z.object({
  workflowId: WorkflowIdParams.shape.workflowId.describe(
    'The verification, or a standalone `run-<flowRunId>` workflow',
  ),
  flowRunId: z.string().min(1).max(200).describe('The run awaiting input'),
});

/** An optional request header whose value becomes the update id: a retried request then runs the update once. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Other headers pass as they are: only the idempotency key is read from them. */
export const IdempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'expected 1 to 200 printable ASCII characters')
    .optional()
    .describe('A retried request with the same key is done once: send the same key when you retry'),
});
/**
 * The intake's own bound on how deeply run input nests. The service states none, but Temporal's JSON payload
 * converter overflows the stack a few thousand levels down (the request would fail with a 500); callback input is
 * a flat set of answers in practice.
 */
export const MAX_RUN_INPUT_DEPTH = 32;
export const IntakeRunInput = RunInput.refine(
  (input) => jsonDepth(input) <= MAX_RUN_INPUT_DEPTH,
  `must not nest deeper than ${MAX_RUN_INPUT_DEPTH} levels`,
);
export const RunInputRequest = z
  .object({ input: IntakeRunInput.describe('Patched into the run’s callback state') })
  .meta({ id: 'RunInputRequest', examples: [{ input: { authorizationNumber: 'A-20260105-17' } }] });
export const RunInputResponse = RunUpdateResponse.meta({ id: 'RunInputResponse' });

export const ReviewRequest = describes<ReviewDecision>()(
  z
    .discriminatedUnion('action', [
      z.object({ action: z.literal('retry') }).describe('Call the service again: a duplicate may be created'),
      z
        .object({ action: z.literal('record'), verificationId: Uuid.describe('The id found at the service') })
        .describe('Take the id of the verification found at the service; no call'),
      z.object({ action: z.literal('abandon') }).describe('Close the verification as `abandoned`'),
    ])
    .describe('A decision on a v1 verification in stage `needs-review`'),
).meta({
  id: 'ReviewRequest',
  examples: [{ action: 'record', verificationId: '0b9a3c4e-6f1d-4a57-9e3b-2c8d7f6a1e05' }],
});
export const ReviewResponse = describes<ReviewAnswer>()(z.object({ accepted: z.enum(REVIEW_ACTIONS) })).meta({
  id: 'ReviewResponse',
});
export const CancelResponse = z
  .object({ workflowId: z.string(), cancelling: z.literal(true) })
  .meta({ id: 'CancelResponse' });

export const ListQuery = z
  .object({ stage: Stage.optional().describe('Only verifications in this stage; all verifications without it') })
  .extend(PageQuery.shape);

/** One verification as visibility shows it: search attributes only, never patient data. */
export const VerificationListItem = describes<VerificationSummary>()(
  z.object({
    workflowId: z.string(),
    stage: z.string().nullable(),
    payerId: z.string().nullable(),
    verificationId: z.string().nullable(),
    discoveryId: z.string().nullable(),
    status: z.string().describe('Temporal execution status: RUNNING, COMPLETED, FAILED, …'),
    startTime: z.iso.datetime(),
  }),
);
export const VerificationList = pageOf('verifications', VerificationListItem).meta({ id: 'VerificationList' });

export const invalidRequestBody = (param: string, message?: string): z.infer<typeof ErrorResponse> => ({
  error: INVALID_REQUEST,
  param,
  ...(message ? { message } : {}),
});
