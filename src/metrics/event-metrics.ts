import { Counter, Histogram } from 'prom-client';
import { registry } from './registry.js';

/** Outbound events' metrics (DESIGN §14): labels from fixed sets, never an endpoint's id or URL. */
const registers = [registry];

const deliveries = new Counter({
  name: 'eligibility_event_deliveries_total',
  help: 'Attempts to deliver an outbound event, by result (delivered, failed, gone)',
  labelNames: ['result'] as const,
  registers,
});

const deliverySeconds = new Histogram({
  name: 'eligibility_event_delivery_duration_seconds',
  help: 'Duration of attempts to deliver an outbound event, answered or not',
  buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

const endpointsDisabled = new Counter({
  name: 'eligibility_event_endpoints_disabled_total',
  help: 'Event endpoints the dispatcher disabled, by reason (gone: it answered 410; failing: every attempt failed for the whole retry window)',
  labelNames: ['reason'] as const,
  registers,
});

export type DeliveryOutcome = 'delivered' | 'failed' | 'gone';

export function recordEventDelivery(result: DeliveryOutcome, seconds: number): void {
  deliveries.inc({ result });
  deliverySeconds.observe(seconds);
}

export function recordEndpointDisabled(reason: string): void {
  endpointsDisabled.inc({ reason });
}
