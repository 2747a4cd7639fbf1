import { componentSchemas, ref } from './openapi-schemas.js';
import { responses, servicePaths } from './openapi-paths.js';
import { DEFAULT_IDEMPOTENCY_HEADER, DEFAULT_V1_FIELD_NAMES, type V1FieldNames } from './verification.js';
import { DISCOVERY_UPDATED_EVENT, RUN_PENDING_EVENT } from './webhook.js';

/**
 * The OpenAPI 3.1 document of the service (`npm run openapi` writes docs/eligibility-service.openapi.json), generated
 * from the contract's zod schemas with `z.toJSONSchema`; nothing in it is written by hand but the paths, statuses and
 * descriptions.
 */
export interface OpenApiOptions {
  /** The idempotency header's name (a gap in the spec; configuration). */
  idempotencyHeader: string;
  /** The v1 NPI and taxonomy field names (a gap in the spec; configuration). */
  v1FieldNames: V1FieldNames;
}

export const DEFAULT_OPENAPI_OPTIONS: OpenApiOptions = {
  idempotencyHeader: DEFAULT_IDEMPOTENCY_HEADER,
  v1FieldNames: DEFAULT_V1_FIELD_NAMES,
};

function webhook(event: string, dataSchemaId: string) {
  return {
    post: {
      summary: `${event}: identifiers only, never patient data; signed in x-eligibility-signature when a secret is set`,
      requestBody: {
        content: {
          'application/json': {
            schema: {
              allOf: [ref('WebhookDelivery'), { properties: { type: { const: event }, data: ref(dataSchemaId) } }],
            },
          },
        },
      },
      responses: { '200': { description: 'Any 2xx acknowledges; anything else is retried with backoff' } },
    },
  };
}

export function buildOpenApiDocument(options: OpenApiOptions = DEFAULT_OPENAPI_OPTIONS): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Insurance eligibility verification service',
      version: '1.0.0',
      description:
        "Generated from src/contract (zod). Where the service's specification leaves a gap (idempotency header name, " +
        'v1 field names, success statuses, webhook payloads), this document shows the decisions recorded in ' +
        'docs/decisions/0001-service-contract-gaps.md.',
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:4010' } } }],
    security: [{ BearerAuth: [] }],
    paths: servicePaths(options.idempotencyHeader),
    webhooks: {
      [DISCOVERY_UPDATED_EVENT]: webhook(DISCOVERY_UPDATED_EVENT, 'DiscoveryUpdatedData'),
      [RUN_PENDING_EVENT]: webhook(RUN_PENDING_EVENT, 'RunPendingData'),
    },
    components: {
      schemas: componentSchemas(options.v1FieldNames),
      responses,
      securitySchemes: { BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}

/** The exact text of docs/eligibility-service.openapi.json. */
export function renderOpenApiDocument(options: OpenApiOptions = DEFAULT_OPENAPI_OPTIONS): string {
  return `${JSON.stringify(buildOpenApiDocument(options), null, 2)}\n`;
}
