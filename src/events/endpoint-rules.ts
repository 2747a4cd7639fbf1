import { z } from 'zod';
import { TenantSchema } from '../temporal/tenant.js';
import { EVENT_TYPES } from '../../workflows/shared/event-catalogue.js';
import { DEFAULT_EVENT_TENANT } from '../../workflows/shared/search-attributes.js';

/*
 * The rules of event endpoints (docs/integrating/events.md) that the intake API, the console and the CLI all apply:
 * what an endpoint's URL and events may be, the tenant a new one belongs to, a rotation's grace, how many events one
 * redelivery queues.
 */

/** An endpoint's id: `ep_<hex>`; anything else in a path is no endpoint's. */
export const ENDPOINT_ID = /^ep_[0-9a-f]{1,64}$/;

/** Events queued by one `failedSince` redelivery at most (a signal's payload stays well within Temporal's limit). */
export const REDELIVER_LIMIT = 1000;

/** A rotation's grace: by default the old secret signs for a day, time for every receiver to take the new one. */
export const ROTATION_GRACE = { defaultSeconds: 24 * 3600, maxSeconds: 7 * 24 * 3600 } as const;

/** A change refused: `field` names what to correct (`url`, `events`, `tenant`…), never a secret. */
export class EndpointRefused extends Error {
  override name = 'EndpointRefused';
  constructor(
    readonly field: string,
    readonly reason: string,
    /** `forbidden`: a tenant not the caller's; `disabled`: the endpoint must be enabled first. */
    readonly kind: 'invalid' | 'forbidden' | 'not-found' | 'disabled' = 'invalid',
  ) {
    super(`${field}: ${reason}`);
  }
}

export const EventType = z
  .enum(EVENT_TYPES, { error: `expected one of ${EVENT_TYPES.join(', ')}` })
  .meta({ id: 'EventType' });

/**
 * An endpoint's address: https, or http (a receiver inside the provider's own network, or a developer's machine: the
 * signature, not the transport, is what proves an event is ours). No credentials in it: they would be stored and shown.
 */
export const EndpointUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http or https address' })
  .max(2048, 'at most 2048 characters')
  .refine((u) => !new URL(u).username && !new URL(u).password, 'an endpoint URL carries no user or password')
  .describe('Where events are POSTed: http or https, no credentials');

export const EndpointEvents = z
  .array(EventType)
  .min(1, 'choose at least one event type')
  .refine((e) => new Set(e).size === e.length, 'each event type once')
  .describe('The event types it receives');

export const EndpointDescription = z.string().max(500, 'at most 500 characters');

const EndpointSpec = z.object({
  url: EndpointUrl,
  events: EndpointEvents,
  description: EndpointDescription.optional(),
});
export type EndpointSpec = z.infer<typeof EndpointSpec>;

/** A new endpoint's URL, events and description, checked; throws `EndpointRefused` naming the first field at fault. */
export function endpointSpec(input: { url: string; events: readonly string[]; description?: string }): EndpointSpec {
  const parsed = EndpointSpec.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new EndpointRefused(String(issue.path[0] ?? 'url'), issue.message);
}

/**
 * The tenant a new endpoint belongs to. `allowed` is the caller's tenants (null: every tenant): one of them may be
 * named; a caller of one tenant needs to name none; a caller of every tenant naming none gets `default` (where the
 * events of verifications started without a tenant go).
 */
export function tenantToCreate(allowed: readonly string[] | null, named: string | undefined): string {
  if (named !== undefined && !TenantSchema.safeParse(named).success) {
    throw new EndpointRefused('tenant', 'expected a tenant identifier (letters, digits, . _ : @ -)');
  }
  if (allowed === null) return named ?? DEFAULT_EVENT_TENANT;
  if (named === undefined) {
    if (allowed.length === 1) return allowed[0]!;
    throw new EndpointRefused('tenant', allowed.length === 0 ? 'you act for no tenant' : 'choose the tenant');
  }
  if (!allowed.includes(named)) throw new EndpointRefused('tenant', 'not a tenant you act for', 'forbidden');
  return named;
}
