import { z } from 'zod';
import { Timestamp } from './common.js';

export const WebhookCreateRequest = z.object({ url: z.url({ protocol: /^https?$/ }) });
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;

/** "service-assigned identifier, prefix `ep_` followed by an opaque string". */
export const EndpointId = z.string().regex(/^ep_.+$/, 'expected ep_ followed by an opaque string');

export const WebhookEndpoint = z.object({
  url: z.string().min(1),
  endpointId: EndpointId,
  events: z.array(z.string()),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const EventSubscriptionRequest = z.object({ event: z.string().min(1) });
export type EventSubscriptionRequest = z.infer<typeof EventSubscriptionRequest>;

/**
 * The only event name the spec shows, and the one the project adds for runs awaiting input
 * (docs/decisions/0001-service-contract-gaps.md).
 */
export const DISCOVERY_UPDATED_EVENT = 'sandbox.discovery.updated';
export const RUN_PENDING_EVENT = 'sandbox.run.pending';
export const SANDBOX_EVENT_NAMES = [DISCOVERY_UPDATED_EVENT, RUN_PENDING_EVENT] as const;

/**
 * A webhook delivery as the sandbox sends it. The spec does not show the payload; receivers must parse defensively
 * and re-fetch what the API can give them (docs/decisions/0001-service-contract-gaps.md). `data` carries identifiers
 * only, never patient data.
 */
export const WebhookDelivery = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: Timestamp,
  data: z.record(z.string(), z.unknown()),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const DiscoveryUpdatedData = z.object({ discoveryId: z.string().min(1), status: z.string().optional() });
/**
 * What a run asks for, in the project's run event (the spec shows none): field names and a sentence for the person
 * answering, never patient data. Bounded, since it travels in a signal and stays in workflow state.
 */
export const RequestedInput = z.object({
  fields: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/))
    .max(20)
    .optional(),
  description: z.string().min(1).max(500).optional(),
});
export type RequestedInput = z.infer<typeof RequestedInput>;

export const RunPendingData = z.object({
  flowRunId: z.string().min(1),
  verificationId: z.string().optional(),
  id: z.string().optional(),
  requestedInput: RequestedInput.optional(),
});

/** Headers of a signed delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const SIGNATURE_HEADER = 'x-eligibility-signature';
