import { ApplicationFailure, Context } from '@temporalio/activity';
import type { EventEndpoints } from '../../src/events/endpoints.js';
import type { EventLog } from '../../src/events/event-log.js';
import { signedHeaders } from '../../src/events/signing.js';
import type { Logger } from '../../src/logging.js';
import { recordEndpointDisabled, recordEventDelivery } from '../../src/metrics/project-metrics.js';
import type { EventActivities } from '../../workflows/events/index.js';
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
  return {
    async deliverEvent({ endpointId, event }): Promise<DeliveryResult> {
      // Kept for replay while the endpoint is read: one database round trip before the POST, not two.
      const [endpoint] = await Promise.all([deps.endpoints.signing(endpointId), deps.log.keep(event)]);
      // Deleted or disabled since it was queued: nothing to deliver (a disabled one's events are redelivered later).
      if (!endpoint || endpoint.status !== 'active') return { delivered: false };
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
      const delivered = status !== undefined && status >= 200 && status < 300;
      const gone = status === 410;
      const outcome = delivered ? 'delivered' : gone ? 'gone' : 'failed';
      recordEventDelivery(outcome, latencyMs / 1000);
      await deps.log.recordAttempt({
        eventId: event.id,
        endpointId,
        status: outcome,
        ...(status !== undefined ? { statusCode: status } : {}),
        ...(failure ? { errorType: failure } : !delivered ? { errorType: `http_${String(status)}` } : {}),
        latencyMs,
        attemptedAt: new Date(started),
        ...(delivered || gone ? {} : { nextRetryAt: nextRetryAt(Date.now()) }),
      });
      if (delivered) return { delivered: true, statusCode: status };
      if (gone) throw ApplicationFailure.nonRetryable('the endpoint answered 410 Gone', DeliveryFailure.Gone);
      throw ApplicationFailure.retryable(
        failure ? `no answer (${failure})` : `the endpoint answered ${String(status)}`,
        DeliveryFailure.Failed,
      );
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
