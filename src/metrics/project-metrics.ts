import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from './registry.js';

/**
 * The project's own metrics, defined once. Labels take values from small fixed sets (route templates, status codes,
 * stages, outcomes, results): never an id and never patient data, so a label cannot leak PHI nor explode the series.
 * Each `record…` function is the one place its metric is written.
 */

const registers = [registry];

const workflowsClosed = new Counter({
  name: 'eligibility_workflows_closed_total',
  help: "Workflow executions of the project that closed, by workflow type and outcome (the result's outcome, or how it failed)",
  labelNames: ['workflow_type', 'outcome'] as const,
  registers,
});

const stagesEntered = new Counter({
  name: 'eligibility_verification_stage_entered_total',
  help: 'Verifications entering a stage',
  labelNames: ['stage'] as const,
  registers,
});

const serviceCalls = new Counter({
  name: 'eligibility_service_requests_total',
  help: 'HTTP calls to the eligibility service, by endpoint (method and route template) and status (or network error code)',
  labelNames: ['endpoint', 'status'] as const,
  registers,
});

const serviceCallSeconds = new Histogram({
  name: 'eligibility_service_request_duration_seconds',
  help: 'Duration of HTTP calls to the eligibility service, by endpoint',
  labelNames: ['endpoint'] as const,
  buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

const rateLimited = new Counter({
  name: 'eligibility_service_rate_limited_total',
  help: "Calls the service refused as too many (429, or its 'Too many requests' body), by endpoint",
  labelNames: ['endpoint'] as const,
  registers,
});

const governedRate = new Gauge({
  name: 'eligibility_governed_rate_per_second',
  help: "The task queue's dispatch rate of service calls set by the governor, in calls per second",
  registers,
});

const webhookDeliveries = new Counter({
  name: 'eligibility_webhook_deliveries_total',
  help: 'Webhook deliveries received, by result',
  labelNames: ['result'] as const,
  registers,
});

const batchItems = new Counter({
  name: 'eligibility_batch_items_total',
  help: 'Batch items handled by the pages that start them, by result (started, duplicate, not-started)',
  labelNames: ['result'] as const,
  registers,
});

const httpRequests = new Counter({
  name: 'eligibility_http_requests_total',
  help: "Requests served by the project's HTTP edges, by server, route template, method and status",
  labelNames: ['server', 'route', 'method', 'status'] as const,
  registers,
});

const httpRequestSeconds = new Histogram({
  name: 'eligibility_http_request_duration_seconds',
  help: "Duration of requests served by the project's HTTP edges, by server and route template",
  labelNames: ['server', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});

export function recordWorkflowClosed(workflowType: string, outcome: string): void {
  workflowsClosed.inc({ workflow_type: workflowType, outcome });
}

export function recordStageEntered(stage: string): void {
  stagesEntered.inc({ stage });
}

/** One HTTP exchange with the service, as the client saw it (`src/client`). */
export interface ServiceExchange {
  /** `GET /v1/payers/{payerId}`: the route template, never the path with its ids. */
  endpoint: string;
  /** The HTTP status, or the network error's code (`TIMEOUT`, `ECONNREFUSED`…) when no answer came. */
  status: number | string;
  seconds: number;
  rateLimited: boolean;
}

export function recordServiceExchange(exchange: ServiceExchange): void {
  const { endpoint } = exchange;
  serviceCalls.inc({ endpoint, status: String(exchange.status) });
  serviceCallSeconds.observe({ endpoint }, exchange.seconds);
  if (exchange.rateLimited) rateLimited.inc({ endpoint });
}

/**
 * The governor's current rate; the governor (docs/developing/traffic.md) calls this whenever it sets the task queue's
 * rate.
 */
export function setGovernedRate(callsPerSecond: number): void {
  governedRate.set(callsPerSecond);
}

export type WebhookDeliveryResult =
  'handled' | 'duplicate' | 'ignored' | 'unauthorized' | 'invalid' | 'temporal-unavailable';

export function recordWebhookDelivery(result: WebhookDeliveryResult): void {
  webhookDeliveries.inc({ result });
}

export function recordBatchItems(counts: { started: number; duplicates: number; notStarted: number }): void {
  batchItems.inc({ result: 'started' }, counts.started);
  batchItems.inc({ result: 'duplicate' }, counts.duplicates);
  batchItems.inc({ result: 'not-started' }, counts.notStarted);
}

export interface HttpRequestRecord {
  server: string;
  /** The route template (`/verifications/:workflowId`), or `unmatched` for a 404 of no route: never the URL. */
  route: string;
  method: string;
  status: number;
  seconds: number;
}

export function recordHttpRequest(r: HttpRequestRecord): void {
  httpRequests.inc({ server: r.server, route: r.route, method: r.method, status: String(r.status) });
  httpRequestSeconds.observe({ server: r.server, route: r.route }, r.seconds);
}

// Outbound events (docs/integrating/events.md): labels from fixed sets, never an endpoint's id or URL.
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
