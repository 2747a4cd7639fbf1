import { z } from 'zod';
import { API_KEY_HEADER } from './api-key.js';
import { BATCH_SCHEMAS, batchPaths } from './openapi-batches.js';
import { IDEMPOTENCY_HEADER } from './routes/run-input.js';
import {
  CancelResponse,
  ErrorResponse,
  ReviewRequest,
  ReviewResponse,
  RunInputRequest,
  RunInputResponse,
  Stage,
  StartedResponse,
  VerificationIntakeRequest,
  VerificationList,
  VerificationStatusResponse,
} from './schemas.js';

export const OPENAPI_PATH = '/docs/openapi.json';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schemaId: string) => ({ 'application/json': { schema: ref(schemaId) } });
const answer = (description: string, schemaId = 'ErrorResponse') => ({ description, content: json(schemaId) });

/** Every named schema of the API, converted once with `z.toJSONSchema` (requests as accepted, answers as sent). */
function componentSchemas(): Record<string, unknown> {
  const named: Record<string, [z.ZodType, 'input' | 'output']> = {
    VerificationIntakeRequest: [VerificationIntakeRequest, 'input'],
    StartedResponse: [StartedResponse, 'output'],
    VerificationStatus: [VerificationStatusResponse, 'output'],
    RunInputRequest: [RunInputRequest, 'input'],
    RunInputResponse: [RunInputResponse, 'output'],
    VerificationList: [VerificationList, 'output'],
    ReviewRequest: [ReviewRequest, 'input'],
    ReviewResponse: [ReviewResponse, 'output'],
    CancelResponse: [CancelResponse, 'output'],
    Stage: [Stage, 'input'],
    ErrorResponse: [ErrorResponse, 'output'],
    ...BATCH_SCHEMAS,
  };
  return Object.fromEntries(
    Object.entries(named).map(([id, [schema, io]]) => {
      const { $schema: _s, ...converted } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
      return [id, converted];
    }),
  );
}

const pathParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', minLength: 1 },
});

const common = {
  '401': answer(`Missing or wrong \`${API_KEY_HEADER}\``),
  '503': {
    ...answer('Temporal is unreachable or did not answer in time; the same request can succeed later'),
    headers: {
      'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
    },
  },
};

/** The intake API's OpenAPI 3.1 document; JSON Schema 2020-12 is 3.1's own dialect, which zod emits. */
export function intakeOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'eligibility-orchestrator intake API',
      version: '0.1.0',
      description:
        'Starts verifications of benefits as Temporal workflows, shows their status and takes the input that pending runs ask for.',
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
    },
    security: [{ apiKey: [] }],
    paths: {
      '/verifications': {
        post: {
          operationId: 'startVerification',
          summary: 'Start the verification of one patient',
          requestBody: { required: true, content: json('VerificationIntakeRequest') },
          responses: {
            '202': answer('Started; the workflow id names it from now on', 'StartedResponse'),
            '200': answer(
              'This caller id was seen before: nothing started, the existing workflow is named',
              'StartedResponse',
            ),
            '400': answer(
              'Invalid request, never worth retrying as is: `param` names the field (a dotted path); without `param`, Temporal refused it as invalid',
            ),
            ...common,
          },
        },
        get: {
          operationId: 'listVerifications',
          summary: 'List verifications by stage (search attributes only, newest first)',
          parameters: [
            { name: 'stage', in: 'query', required: false, schema: ref('Stage') },
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            },
          ],
          responses: {
            '200': answer('Verifications', 'VerificationList'),
            '400': answer('`param` names the invalid query parameter'),
            ...common,
          },
        },
      },
      '/verifications/{workflowId}': {
        get: {
          operationId: 'getVerificationStatus',
          summary: 'The status of a verification (its `status` query)',
          parameters: [pathParam('workflowId', 'e.g. `verification-<caller id>`')],
          responses: {
            '200': answer('Status', 'VerificationStatus'),
            '404': answer('No such verification workflow'),
            ...common,
          },
        },
      },
      '/verifications/{workflowId}/runs/{flowRunId}/input': {
        post: {
          operationId: 'supplyRunInput',
          summary: 'Supply the input a pending run asks for (the `supplyRunInput` update)',
          parameters: [
            pathParam('workflowId', 'The verification, or a standalone `run-<flowRunId>` workflow'),
            pathParam('flowRunId', 'The run awaiting input'),
            {
              name: IDEMPOTENCY_HEADER,
              in: 'header',
              required: false,
              description: 'Becomes the update id: a retried request with the same key runs the update once',
              schema: { type: 'string', minLength: 1, maxLength: 200 },
            },
          ],
          requestBody: { required: true, content: json('RunInputRequest') },
          responses: {
            '200': answer('The service accepted the input', 'RunInputResponse'),
            '400': answer(
              'Refused by the workflow or the service; `param` names the field (e.g. `input`, `flowRunId`)',
            ),
            '404': answer('No such workflow'),
            '409': answer('The workflow has closed (`workflow_closed`); `outcome` says how it ended'),
            ...common,
          },
        },
      },
      '/verifications/{workflowId}/review': {
        post: {
          operationId: 'resolveReview',
          summary: 'Decide a v1 verification in stage `needs-review` (the `resolveReview` update)',
          description:
            'A v1 creation whose outcome is unknown is never retried automatically (v1 has no idempotency). `retry` calls the service again and may create a duplicate; `record` takes the verification id found at the service, with no call; `abandon` closes the verification as `abandoned`.',
          parameters: [
            pathParam('workflowId', 'A verification in stage `needs-review`'),
            {
              name: IDEMPOTENCY_HEADER,
              in: 'header',
              required: false,
              description: 'Becomes the update id: a retried request with the same key decides once',
              schema: { type: 'string', minLength: 1, maxLength: 200 },
            },
          ],
          requestBody: { required: true, content: json('ReviewRequest') },
          responses: {
            '200': answer('The decision was accepted', 'ReviewResponse'),
            '400': answer('`param` names the invalid field (`action`, `verificationId`)'),
            '404': answer('No such workflow'),
            '409': answer('Not awaiting review (`not_awaiting_review`), or closed (`workflow_closed`, with `outcome`)'),
            ...common,
          },
        },
      },
      '/verifications/{workflowId}/cancel': {
        post: {
          operationId: 'cancelVerification',
          summary: 'Cancel a verification (the `cancel` signal); it ends as `cancelled` at its next step',
          parameters: [pathParam('workflowId', 'A verification, or a discovery or run workflow')],
          responses: {
            '202': answer('The cancel signal was recorded', 'CancelResponse'),
            '404': answer('No such workflow'),
            '409': answer('The workflow has closed (`workflow_closed`); `outcome` says how it ended'),
            ...common,
          },
        },
      },
      ...batchPaths(answer, json, common),
      [OPENAPI_PATH]: {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': {} } } },
        },
      },
    },
  };
}
