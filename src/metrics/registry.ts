import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one Prometheus registry of a process: the project's metrics (`./project-metrics.ts`) and Node's own (heap, event
 * loop lag, CPU). Every `/metrics` route serves it; the worker's adds the Temporal SDK's scrape to it.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** The registry in Prometheus's text format. */
export function scrape(): Promise<string> {
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
