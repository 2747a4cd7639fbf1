import { request } from 'undici';
import { recordEventDelivery } from '../../metrics/project-metrics.js';
import type { OutboundEvent } from '../../../workflows/shared/event-catalogue.js';
import type { SigningEndpoint } from '../endpoints.js';
import type { AttemptRecord } from '../event-log.js';
import { signedHeaders } from '../signing.js';

/** One attempt's answer, as the deliveries log keeps it. */
export interface Attempt {
  outcome: 'delivered' | 'gone' | 'failed';
  statusCode?: number;
  errorType?: string;
  latencyMs: number;
  attemptedAt: Date;
}

/** A value with every object's keys in sorted order (arrays keep theirs). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

/**
 * The body every attempt at one event sends, whichever copy it was read from: the workflow's, or the database's (whose
 * jsonb orders keys its own way), so a redelivery carries the same bytes as the first attempt.
 */
export function eventBody(event: OutboundEvent): string {
  const { id, type, timestamp, tenant, data, links } = event;
  return JSON.stringify({ id, type, timestamp, tenant, data: sortedKeys(data), links });
}

/** An attempt's failure with no HTTP answer, named by kind (never the message, which may quote the URL). */
function errorType(err: unknown): string {
  const name = (err as Error | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
}

/**
 * One signed POST of one event (Standard Webhooks headers), given `timeoutMs` to answer; never throws.
 */
export async function attemptDelivery(
  endpoint: SigningEndpoint,
  event: OutboundEvent,
  timeoutMs: number,
): Promise<Attempt> {
  const body = eventBody(event);
  const started = Date.now();
  let status: number | undefined;
  let failure: string | undefined;
  try {
    // undici's `request`: one bare POST whose answer is never read. It follows no redirect: the receiver's address is the
    // one its tenant registered.
    const response = await request(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'eligibility-orchestrator-events/1',
        ...signedHeaders(event.id, body, endpoint.secrets, new Date()),
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.statusCode;
    // The body is not read: a receiver answers, it does not talk.
    await response.body.dump().catch(() => undefined);
  } catch (err) {
    failure = errorType(err);
  }
  const latencyMs = Date.now() - started;
  const outcome: Attempt['outcome'] =
    status !== undefined && status >= 200 && status < 300 ? 'delivered' : status === 410 ? 'gone' : 'failed';
  recordEventDelivery(outcome, latencyMs / 1000);
  return {
    outcome,
    ...(status !== undefined ? { statusCode: status } : {}),
    ...(failure ? { errorType: failure } : outcome !== 'delivered' ? { errorType: `http_${String(status)}` } : {}),
    latencyMs,
    attemptedAt: new Date(started),
  };
}

/** An attempt as the deliveries log keeps it; a failed one with when it is tried again, when that is known. */
export const attemptRecord = (
  endpointId: string,
  event: OutboundEvent,
  a: Attempt,
  nextRetryAt?: Date,
): AttemptRecord => ({
  eventId: event.id,
  endpointId,
  status: a.outcome,
  ...(a.statusCode !== undefined ? { statusCode: a.statusCode } : {}),
  ...(a.errorType ? { errorType: a.errorType } : {}),
  latencyMs: a.latencyMs,
  attemptedAt: a.attemptedAt,
  ...(a.outcome === 'failed' && nextRetryAt ? { nextRetryAt } : {}),
});
