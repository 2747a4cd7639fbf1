import type { EventsConfig } from '../../config.js';

/**
 * How deliveries are tried (docs/developing/event-delivery.md): each attempt at most `attemptTimeoutMs`; a failed one
 * tried again after `initialIntervalMs`, growing by `backoffCoefficient` up to `maximumIntervalMs`, until `windowMs`
 * after the first failure, when the endpoint is disabled as failing. Per endpoint at most `concurrency` under way in a
 * worker. Passed in, so tests shorten it.
 */
export interface DeliveryPolicy {
  attemptTimeoutMs: number;
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  windowMs: number;
  concurrency: number;
  /** Deliveries under way at once in a worker, all endpoints together. */
  maxUnderWay: number;
  /** How often a worker looks for due deliveries when nothing wakes it (an event it kept itself does). */
  pollMs: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  attemptTimeoutMs: 10_000,
  initialIntervalMs: 10_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 2 * 3600_000,
  windowMs: 72 * 3600_000,
  concurrency: 16,
  maxUnderWay: 200,
  pollMs: 250,
};

/** The policy of the configuration (EVENTS_RETRY_WINDOW_HOURS, EVENTS_ENDPOINT_CONCURRENCY); tests override parts. */
export function deliveryPolicy(
  config: Pick<EventsConfig, 'retryWindowHours' | 'endpointConcurrency'>,
  overrides: Partial<DeliveryPolicy> = {},
): DeliveryPolicy {
  return {
    ...DEFAULT_DELIVERY_POLICY,
    windowMs: config.retryWindowHours * 3600_000,
    concurrency: config.endpointConcurrency,
    ...overrides,
  };
}

/** When a delivery that has failed `attempts` times is tried again. */
export function nextAttemptAt(policy: DeliveryPolicy, attempts: number, now: number): Date {
  const interval = policy.initialIntervalMs * policy.backoffCoefficient ** Math.max(0, attempts - 1);
  return new Date(now + Math.min(policy.maximumIntervalMs, interval));
}
