import { ApplicationFailure, Context } from '@temporalio/activity';
import type { EventEndpoints, SigningEndpoint } from '../../src/events/endpoints.js';
import type { AttemptRecord, EventLog } from '../../src/events/event-log.js';
import { signedHeaders } from '../../src/events/signing.js';
import type { Logger } from '../../src/logging.js';
import { recordEndpointDisabled, recordEventDelivery } from '../../src/metrics/project-metrics.js';
import type { EventActivities, FirstAttempt } from '../../workflows/events/index.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { DeliveryFailure, type DeliveryResult } from '../../workflows/shared/event-types.js';

export interface EventActivityDeps {
  endpoints: EventEndpoints;
  log: EventLog;
  logger: Logger;
  /** One attempt's HTTP deadline: under the activity's 10 s start-to-close, so the attempt is recorded either way. */
  requestTimeoutMs?: number;
}

const REQUEST_TIMEOUT_MS = 9_000;

/** One attempt's answer, as the deliveries log keeps it. */
interface Attempt {
  outcome: 'delivered' | 'gone' | 'failed';
  statusCode?: number;
  errorType?: string;
  latencyMs: number;
  attemptedAt: Date;
}

/** An attempt's failure with no HTTP answer, named by kind (never the message, which may quote the URL). */
function errorType(err: unknown): string {
  const name = (err as Error | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
}

/** When Temporal will try again, from the attempt and the activity's retry policy (shown in the deliveries log). */
function nextRetryAt(now: number): Date | undefined {
  const { attempt, retryPolicy } = Context.current().info;
  if (!retryPolicy) return undefined;
  const initial = Number(retryPolicy.initialInterval ?? 1000);
  const coefficient = retryPolicy.backoffCoefficient ?? 2;
  const max = retryPolicy.maximumInterval !== undefined ? Number(retryPolicy.maximumInterval) : Infinity;
  return new Date(now + Math.min(max, initial * coefficient ** (attempt - 1)));
}

/**
 * The event dispatcher's activities (DESIGN §14), on the events task queue, apart from the service's: a slow endpoint
 * holds only these. The endpoint's URL and secrets are read at every attempt, so a rotation or a change applies at
 * once and no secret ever reaches Temporal.
 */
export function createEventActivities(deps: EventActivityDeps): EventActivities {
  const timeoutMs = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;

  /** One signed POST of one event; never throws. */
  async function attempt(endpoint: SigningEndpoint, event: OutboundEvent): Promise<Attempt> {
    const body = JSON.stringify(event);
    const started = Date.now();
    let status: number | undefined;
    let failure: string | undefined;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'eligibility-orchestrator-events/1',
          ...signedHeaders(event.id, body, endpoint.secrets, new Date()),
        },
        body,
        // A redirect is not followed: the receiver's address is the one its tenant registered.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      // The body is not read beyond a little: a receiver answers, it does not talk.
      await response.body?.cancel().catch(() => undefined);
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

  /** The endpoint's URL and secrets, read while the events are kept for replay (one round trip before the POSTs). */
  async function prepare(endpointId: string, events: OutboundEvent[]): Promise<SigningEndpoint | undefined> {
    const [endpoint] = await Promise.all([deps.endpoints.signing(endpointId), deps.log.keep(...events)]);
    // Deleted or disabled since it was queued: nothing to deliver (a disabled one's events are redelivered later).
    return endpoint?.status === 'active' ? endpoint : undefined;
  }

  const record = (endpointId: string, event: OutboundEvent, a: Attempt, nextRetryAt?: Date): AttemptRecord => ({
    eventId: event.id,
    endpointId,
    status: a.outcome,
    ...(a.statusCode !== undefined ? { statusCode: a.statusCode } : {}),
    ...(a.errorType ? { errorType: a.errorType } : {}),
    latencyMs: a.latencyMs,
    attemptedAt: a.attemptedAt,
    ...(a.outcome === 'failed' && nextRetryAt ? { nextRetryAt } : {}),
  });

  return {
    async deliverEvent({ endpointId, event }): Promise<DeliveryResult> {
      const endpoint = await prepare(endpointId, [event]);
      if (!endpoint) return { delivered: false };
      const a = await attempt(endpoint, event);
      await deps.log.recordAttempt(record(endpointId, event, a, nextRetryAt(Date.now())));
      if (a.outcome === 'delivered') return { delivered: true, statusCode: a.statusCode };
      if (a.outcome === 'gone')
        throw ApplicationFailure.nonRetryable('the endpoint answered 410 Gone', DeliveryFailure.Gone);
      throw ApplicationFailure.retryable(
        a.statusCode === undefined ? `no answer (${a.errorType})` : `the endpoint answered ${String(a.statusCode)}`,
        DeliveryFailure.Failed,
      );
    },

    async deliverFirst({ endpointId, events }): Promise<FirstAttempt[]> {
      const endpoint = await prepare(endpointId, events);
      if (!endpoint) return events.map(() => 'skipped');
      const attempts = await Promise.all(events.map((event) => attempt(endpoint, event)));
      // A failed one is tried again at once, alone, by the dispatcher's retrying delivery.
      const now = new Date();
      await deps.log.recordAttempts(attempts.map((a, i) => record(endpointId, events[i]!, a, now)));
      return attempts.map((a) => a.outcome);
    },

    async disableEndpoint({ endpointId, reason, undelivered }): Promise<void> {
      const disabled = await deps.endpoints.disable(endpointId, reason);
      await deps.log.keepUndelivered(endpointId, undelivered);
      if (!disabled) return;
      recordEndpointDisabled(reason);
      deps.logger.warn(
        { endpointId, reason, undelivered: undelivered.length },
        reason === 'gone'
          ? 'event endpoint disabled: it answered 410 Gone'
          : 'event endpoint disabled: every delivery failed for the whole retry window',
      );
    },

    async recordUndelivered({ endpointId, events }: { endpointId: string; events: OutboundEvent[] }): Promise<void> {
      await deps.log.keepUndelivered(endpointId, events);
    },
  };
}
