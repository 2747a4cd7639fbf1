import { ApplicationFailure, Context } from '@temporalio/activity';
import type { EventEndpoints, SigningEndpoint } from '../../src/events/endpoints.js';
import type { EventLog } from '../../src/events/event-log.js';
import { attemptDelivery, attemptRecord, REQUEST_TIMEOUT_MS } from '../../src/events/attempt.js';
import type { Logger } from '../../src/logging.js';
import { recordEndpointDisabled } from '../../src/metrics/project-metrics.js';
import type { EventActivities, FirstAttempt } from '../../workflows/events/index.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { DeliveryFailure, type DeliveryResult } from '../../workflows/events/events.js';

export interface EventActivityDeps {
  endpoints: EventEndpoints;
  log: EventLog;
  logger: Logger;
  /** One attempt's HTTP deadline: under the activity's 10 s start-to-close, so the attempt is recorded either way. */
  requestTimeoutMs?: number;
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
 * The event dispatcher's activities (docs/integrating/events.md), on the events task queue, apart from the service's: a
 * slow endpoint holds only these. The endpoint's URL and secrets are read at every attempt, so a rotation or a change
 * applies at once and no secret ever reaches Temporal.
 */
export function createEventActivities(deps: EventActivityDeps): EventActivities {
  const timeoutMs = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const attempt = (endpoint: SigningEndpoint, event: OutboundEvent) => attemptDelivery(endpoint, event, timeoutMs);

  /** The endpoint's URL and secrets, read while the events are kept for replay (one round trip before the POSTs). */
  async function prepare(endpointId: string, events: OutboundEvent[]): Promise<SigningEndpoint | undefined> {
    const [endpoint] = await Promise.all([deps.endpoints.signing(endpointId), deps.log.keep(...events)]);
    // Deleted or disabled since it was queued: nothing to deliver (a disabled one's events are redelivered later).
    return endpoint?.status === 'active' ? endpoint : undefined;
  }

  return {
    async deliverEvent({ endpointId, event }): Promise<DeliveryResult> {
      const endpoint = await prepare(endpointId, [event]);
      if (!endpoint) return { delivered: false };
      const a = await attempt(endpoint, event);
      await deps.log.recordAttempt(attemptRecord(endpointId, event, a, nextRetryAt(Date.now())));
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
      await deps.log.recordAttempts(attempts.map((a, i) => attemptRecord(endpointId, events[i]!, a, now)));
      return attempts.map((a) => a.outcome);
    },

    async disableEndpoint({ endpointId, reason, undelivered, at }): Promise<void> {
      const disabled = await deps.endpoints.disable(endpointId, reason, at !== undefined ? new Date(at) : undefined);
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
