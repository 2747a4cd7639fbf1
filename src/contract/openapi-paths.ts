import { json, ref } from './openapi-schemas.js';

/** The service's paths, statuses and shared error responses, referring to the component schemas by name. */

export const responses = {
  InvalidRequest: {
    description: 'Invalid request; `param` names the offending field (a dotted path for nested fields)',
    content: json('InvalidParamBody'),
  },
  Unauthorized: {
    description: 'Missing, malformed, unknown, revoked or expired bearer token',
    content: json('InvalidRequestBody'),
  },
  NotFound: { description: 'No such resource', content: json('InvalidRequestBody') },
  TooManyRequests: {
    description: 'Rate limit exceeded',
    headers: {
      'Retry-After': { description: 'Whole seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
    },
    content: json('TooManyRequestsBody'),
  },
  InvalidRequestOptionalParam: {
    description: 'Invalid request; `param`, when present, names the offending field (the spec makes it optional)',
    content: json('InvalidRequestOptionalParamBody'),
  },
  // The spec shows "500 without a described body": none is declared (the sandbox sends one, which no client may need).
  InternalError: { description: 'Internal error (the spec describes no body)' },
};

const errorRef = (name: keyof typeof responses) => ({ $ref: `#/components/responses/${name}` });
const guarded = {
  '403': errorRef('Unauthorized'),
  '429': errorRef('TooManyRequests'),
  '500': errorRef('InternalError'),
};
const pathParam = (name: string, schema: unknown = { type: 'string', minLength: 1 }) => ({
  name,
  in: 'path',
  required: true,
  schema,
});

function operation(fields: {
  id: string;
  summary: string;
  ok: [status: string, description: string, schemaId: string];
  body?: string;
  params?: unknown[];
  invalid?: unknown;
  notFound?: boolean;
  deprecated?: boolean;
}) {
  const [status, description, schemaId] = fields.ok;
  return {
    operationId: fields.id,
    summary: fields.summary,
    ...(fields.deprecated ? { deprecated: true } : {}),
    ...(fields.params ? { parameters: fields.params } : {}),
    ...(fields.body ? { requestBody: { required: true, content: json(fields.body) } } : {}),
    responses: {
      [status]: { description, content: json(schemaId) },
      ...(fields.invalid === undefined ? {} : { '400': fields.invalid }),
      ...guarded,
      ...(fields.notFound ? { '404': errorRef('NotFound') } : {}),
    },
  };
}

export function servicePaths(idempotencyHeader: string) {
  const invalid = errorRef('InvalidRequest');
  return {
    '/oauth/token': {
      post: {
        operationId: 'createToken',
        summary: 'Exchange client credentials for a bearer access token (expires_in in seconds)',
        security: [],
        requestBody: { required: true, content: json('TokenRequest') },
        responses: {
          '200': { description: 'Access token', content: json('AccessToken') },
          '400': { description: 'Bad credentials or body', content: json('InvalidRequestBody') },
          '500': errorRef('InternalError'),
        },
      },
    },
    '/v2/verifications': {
      post: operation({
        id: 'createVerification',
        summary: 'Create a verification of benefits',
        params: [
          {
            name: idempotencyHeader,
            in: 'header',
            required: true,
            description: 'Same key and body: the first response again; same key, other body: 400 naming the header',
            schema: ref('IdempotencyKey'),
          },
        ],
        body: 'VerificationRequestV2',
        ok: ['201', 'Created (or the replay of an earlier creation with the same key)', 'VerificationResponseV2'],
        invalid: {
          description: 'Invalid request; echoes the caller `id` when given',
          content: json('InvalidVerificationBody'),
        },
      }),
    },
    '/v1/verifications': {
      post: operation({
        id: 'createVerificationV1',
        summary: 'Create a verification (legacy, planned for deprecation)',
        deprecated: true,
        body: 'VerificationRequestV1',
        ok: ['201', 'Created', 'VerificationResponseV1'],
        invalid,
      }),
    },
    '/v1/providers/groups': {
      post: operation({
        id: 'createProviderGroup',
        summary: 'Create a provider group',
        body: 'ProviderGroupRequest',
        ok: ['201', 'Created', 'ProviderGroupResponse'],
        invalid,
      }),
    },
    '/v1/runs/{flowRunId}': {
      put: operation({
        id: 'updateRun',
        summary: 'Patch the callback input of a pending run',
        params: [pathParam('flowRunId', ref('FlowRunId'))],
        body: 'RunUpdateRequest',
        ok: ['200', 'Updated', 'RunUpdateResponse'],
        invalid: errorRef('InvalidRequestOptionalParam'),
        notFound: true,
      }),
    },
    '/v1/patients/{patientId}': {
      get: operation({
        id: 'getPatient',
        summary: 'Fetch a legacy patient record (planned for deprecation)',
        deprecated: true,
        params: [pathParam('patientId')],
        ok: ['200', 'The patient', 'LegacyPatient'],
        notFound: true,
      }),
    },
    '/v1/discovery/{discoveryId}': {
      get: operation({
        id: 'getDiscovery',
        summary: 'Fetch a discovery',
        params: [pathParam('discoveryId')],
        ok: ['200', 'The discovery', 'Discovery'],
        notFound: true,
      }),
    },
    '/v1/payers/{payerId}': {
      get: operation({
        id: 'getPayer',
        summary: 'Look up a payer by its id or any alias id',
        params: [pathParam('payerId')],
        ok: ['200', 'The payer', 'Payer'],
        notFound: true,
      }),
    },
    '/v1/webhooks': {
      post: operation({
        id: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint (no events yet)',
        body: 'WebhookCreateRequest',
        ok: ['201', 'Registered', 'WebhookEndpoint'],
        invalid,
      }),
    },
    '/v1/webhooks/{endpointId}/events': {
      post: operation({
        id: 'subscribeWebhookEvent',
        summary: 'Subscribe an endpoint to an event (subscribing twice changes nothing)',
        params: [pathParam('endpointId', ref('EndpointId'))],
        body: 'EventSubscriptionRequest',
        ok: ['201', 'The endpoint with its events', 'WebhookEndpoint'],
        invalid,
        notFound: true,
      }),
    },
  };
}
