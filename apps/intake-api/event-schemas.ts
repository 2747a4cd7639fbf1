import { z } from 'zod';
import { TenantSchema } from '../../src/temporal/tenant.js';
import type { EndpointView } from '../../src/events/endpoints.js';
import type { DeliveryView } from '../../src/events/event-log.js';
import { describes } from '../../src/contract/describes.js';
import { EVENT_CATALOGUE, EVENT_TYPES, FAILED_REASONS } from '../../workflows/shared/event-catalogue.js';
import {
  ENDPOINT_ID,
  EndpointDescription,
  EndpointEvents,
  EndpointUrl,
  ROTATION_GRACE,
} from '../../src/events/endpoint-rules.js';
import { CoverageChangeFields } from './patient-schemas.js';
import { pageOf } from './pagination.js';
import { ITEM_OUTCOMES, RUNNING_STAGES, STAGES } from '../../workflows/shared/stages.js';

/*
 * The event endpoints' bodies and answers (docs/integrating/events.md), and the events themselves as the OpenAPI
 * document's `webhooks` show them. Every event type comes from the one catalogue (workflows/shared/event-catalogue.ts).
 */

/**
 * An endpoint's URL as the API reads it: the address is checked first and the rules that parse it (no credentials)
 * run only on one that is an address (a failed `z.url` check does not stop the chain, and `new URL('')` throws). The
 * document states the scheme as a pattern.
 */
const ApiEndpointUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http or https address' })
  .max(2048, 'at most 2048 characters')
  .meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', description: EndpointUrl.description })
  .pipe(EndpointUrl);

/** Each event type once, as the document states it (`uniqueItems`). */
const ApiEndpointEvents = EndpointEvents.meta({ uniqueItems: true });

export const EndpointCreateRequest = z
  .strictObject({
    url: ApiEndpointUrl,
    events: ApiEndpointEvents,
    description: EndpointDescription.optional(),
    tenant: TenantSchema.optional().describe('An all-tenant caller names the tenant; others may name only their own'),
  })
  .meta({
    id: 'EndpointCreateRequest',
    examples: [{ url: 'https://ehr.example.com/hooks/eligibility', events: ['verification.completed'] }],
  });

export const EndpointUpdateRequest = z
  .strictObject({
    url: ApiEndpointUrl.optional(),
    events: ApiEndpointEvents.optional(),
    description: EndpointDescription.nullable().optional(),
    disabled: z
      .boolean()
      .optional()
      .describe('true stops deliveries; false starts them again (after a 410 or a failing window too)'),
  })
  .meta({ id: 'EndpointUpdateRequest', examples: [{ disabled: false }] });

export const Endpoint = describes<EndpointView>()(
  z.object({
    id: z.string().describe('`ep_<hex>`'),
    tenant: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().optional(),
    status: z.enum(['active', 'disabled']),
    disabledReason: z
      .string()
      .optional()
      .describe('`gone` (it answered 410), `failing` (every delivery failed for the whole retry window), `disabled`'),
    disabledAt: z.iso.datetime().optional(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    previousSecretExpiresAt: z.iso
      .datetime()
      .optional()
      .describe('During a rotation: until when the old secret also signs'),
  }),
).meta({ id: 'EventEndpoint' });

export const EndpointWithSecret = z
  .object({
    endpoint: Endpoint,
    secret: z.string().describe('`whsec_…`: shown this once; verify deliveries with it (Standard Webhooks)'),
  })
  .meta({ id: 'EventEndpointWithSecret' });

export const EndpointList = pageOf('endpoints', Endpoint).meta({ id: 'EventEndpointList' });

export const EndpointParams = z.object({ endpointId: z.string().regex(ENDPOINT_ID, 'an endpoint id') });

export const RotateRequest = z
  .strictObject({
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(ROTATION_GRACE.maxSeconds)
      .optional()
      .describe('How long the old secret keeps signing beside the new one; default 86400 (24 h)'),
  })
  .meta({ id: 'RotateSecretRequest', examples: [{ graceSeconds: 3600 }] });

export const Delivery = describes<DeliveryView>()(
  z.object({
    eventId: z.string(),
    eventType: z.string(),
    attempt: z.number().describe('1, 2, 3… (0: never tried, its endpoint stopped first)'),
    status: z.enum(['delivered', 'failed', 'gone', 'undelivered']),
    statusCode: z.number().optional(),
    errorType: z.string().optional().describe('`timeout`, `network`, or `http_<status>`'),
    latencyMs: z.number().optional(),
    attemptedAt: z.iso.datetime(),
    nextRetryAt: z.iso.datetime().optional(),
  }),
).meta({ id: 'EventDelivery' });

export const DeliveryList = pageOf('deliveries', Delivery).meta({ id: 'EventDeliveryList' });

export const RedeliverRequest = z
  .union([
    z.strictObject({ eventId: z.string().regex(/^evt_[0-9a-f]{1,64}$/) }),
    z.strictObject({
      failedSince: z.iso.datetime().describe('Every event since then this endpoint never acknowledged'),
    }),
  ])
  .meta({ id: 'RedeliverRequest', examples: [{ failedSince: '2026-01-05T08:00:00Z' }] });

export const RedeliverResponse = z.object({ queued: z.number() }).meta({ id: 'RedeliverResponse' });

const VerificationData = z.object({
  workflowId: z.string(),
  stage: z.enum(STAGES),
  verificationId: z.string().optional(),
  discoveryId: z.string().optional(),
  payerId: z.string().optional(),
  batchId: z.string().optional(),
  reason: z.enum(FAILED_REASONS).optional(),
  error: z.object({ type: z.string(), param: z.string().optional() }).optional(),
  flowRunIds: z.array(z.string()).optional(),
});

const BatchData = z.object({
  batchId: z.string(),
  phase: z.enum(['settled', 'finished', 'cancelled']),
  round: z.number(),
  counts: z.object({
    items: z.number(),
    invalid: z.number(),
    duplicate: z.number(),
    notStarted: z.number(),
    skipped: z.number(),
    queued: z.number(),
    running: z.object(Object.fromEntries(RUNNING_STAGES.map((s) => [s, z.number()]))),
    outcomes: z.object(Object.fromEntries(ITEM_OUTCOMES.map((o) => [o, z.number()]))),
  }),
});

const CoverageChangedData = CoverageChangeFields.extend({ patientId: z.string() });

const DATA_BY_SUBJECT = { verification: VerificationData, batch: BatchData, patient: CoverageChangedData } as const;

/** One event's body, as signed and POSTed. */
function eventBody(type: (typeof EVENT_TYPES)[number]) {
  const about = EVENT_CATALOGUE[type].about;
  return z.object({
    id: z.string().describe('`evt_<hex>`, also the `webhook-id` header: the same on every attempt and redelivery'),
    type: z.literal(type),
    timestamp: z.string().describe('When it happened (ISO 8601)'),
    tenant: z.string(),
    data: DATA_BY_SUBJECT[about],
    links: z.object({ self: z.string().describe('The intake API path to fetch the details with your own key') }),
  });
}

/** The OpenAPI `webhooks` section: one entry per event of the catalogue. */
export function eventWebhooks(): Record<string, object> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: EVENT_CATALOGUE[type].description,
          description:
            'Standard Webhooks: headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64 HMAC-SHA256>`, ' +
            'space-separated during a rotation). Verify with `new Webhook(secret).verify(body, headers)`.',
          requestBody: { content: { 'application/json': { schema: z.toJSONSchema(eventBody(type)) } } },
          responses: {
            '200': { description: 'Any 2xx acknowledges; 410 disables the endpoint; anything else is retried' },
          },
        },
      },
    ]),
  );
}
