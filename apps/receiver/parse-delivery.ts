import { createHash } from 'node:crypto';
import { CallerId, RequestedInput } from '../../src/contract/index.js';
import { isPlainObject } from '../../workflows/shared/plain-object.js';

/**
 * Reading a delivery defensively (docs/decisions/0001-service-contract-gaps.md): the spec shows neither payload nor
 * event list, so the receiver accepts the sandbox's `{id, type, created, data: {...}}`, the same with `event` for
 * `type`, and flat bodies whose fields sit at the top. Only identifiers (and what a run asks for) are taken from a
 * body; what the API can fetch is re-fetched by the workflow.
 */

export interface Delivery {
  /**
   * The event's id; for a body without one, a hash of the exact bytes, so a verbatim redelivery still deduplicates;
   * for an id over 200 characters, its hash.
   */
  eventId: string;
  /** undefined when the body names no event type. */
  type: string | undefined;
  /** Where the event's identifiers sit: `data` when it is an object, else the body itself. */
  data: Record<string, unknown>;
  /** true when `data` is nested, which makes `data.id` the caller's id rather than the event's. */
  enveloped: boolean;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; param: string };

function firstString(source: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/** Event ids travel in signals and are kept in workflow state: a longer one is replaced by its hash. */
const MAX_EVENT_ID_LENGTH = 200;
const hashId = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** Parses the raw body; anything that is not a JSON object is malformed. */
export function parseDelivery(raw: Buffer | undefined): Parsed<Delivery> {
  if (!raw || raw.length === 0) return { ok: false, param: 'body' };
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    // JSON.parse's message quotes the body, which may hold anything: it is never logged or returned.
    return { ok: false, param: 'body' };
  }
  if (!isPlainObject(body)) return { ok: false, param: 'body' };
  const enveloped = isPlainObject(body.data);
  const data = enveloped ? (body.data as Record<string, unknown>) : body;
  const type = firstString(body, ['type', 'event', 'eventType', 'event_type']);
  const givenId = enveloped
    ? firstString(body, ['id', 'eventId', 'event_id'])
    : firstString(body, ['eventId', 'event_id', 'id']);
  const eventId =
    givenId === undefined ? hashId(raw) : givenId.length <= MAX_EVENT_ID_LENGTH ? givenId : hashId(givenId);
  return { ok: true, value: { eventId, type, data, enveloped } };
}

/**
 * Identifiers that end up inside a visibility query or a workflow id: conservative characters only, so a body can
 * never change the meaning of a query (`"`, spaces and operators are refused rather than escaped).
 */
const SERVICE_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$/;

function serviceId(data: Record<string, unknown>, keys: readonly string[]): Parsed<string | undefined> {
  const value = firstString(data, keys);
  if (value === undefined) return { ok: true, value: undefined };
  return SERVICE_ID.test(value) ? { ok: true, value } : { ok: false, param: `data.${keys[0]}` };
}

export interface DiscoveryEvent {
  discoveryId: string;
}

export function discoveryEvent(delivery: Delivery): Parsed<DiscoveryEvent> {
  const discoveryId = serviceId(delivery.data, ['discoveryId', 'discovery_id']);
  if (!discoveryId.ok) return discoveryId;
  if (discoveryId.value === undefined) return { ok: false, param: 'data.discoveryId' };
  return { ok: true, value: { discoveryId: discoveryId.value } };
}

export interface RunEvent {
  flowRunId: string;
  verificationId?: string;
  /** What the run asks for (`data.requestedInput`), when the event says so in the expected shape; else left out. */
  requested?: RequestedInput;
  /** The caller's id of the verification (`data.id` of an enveloped event), when it is one our intake could use. */
  callerId?: string;
}

export function runEvent(delivery: Delivery): Parsed<RunEvent> {
  const flowRunId = serviceId(delivery.data, ['flowRunId', 'flow_run_id']);
  if (!flowRunId.ok) return flowRunId;
  if (flowRunId.value === undefined) return { ok: false, param: 'data.flowRunId' };
  const verificationId = serviceId(delivery.data, ['verificationId', 'verification_id']);
  if (!verificationId.ok) return verificationId;
  // A flat body's `id` is the event's, so only an enveloped event names the caller's id; an unusable one is dropped,
  // since the verification can still be found by its verificationId.
  const rawCallerId = delivery.enveloped ? firstString(delivery.data, ['id', 'callerId']) : delivery.data.callerId;
  const callerId = CallerId.safeParse(rawCallerId);
  // Shown to the person answering; a malformed one is dropped rather than refusing the event, which still matters.
  const requested = RequestedInput.safeParse(delivery.data.requestedInput ?? delivery.data.requested_input);
  return {
    ok: true,
    value: {
      flowRunId: flowRunId.value,
      ...(verificationId.value ? { verificationId: verificationId.value } : {}),
      ...(callerId.success ? { callerId: callerId.data } : {}),
      ...(requested.success && requested.data && (requested.data.fields || requested.data.description)
        ? { requested: requested.data }
        : {}),
    },
  };
}
