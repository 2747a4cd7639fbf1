import type { ObservabilityConfig } from '../config.js';
import type { Tracing } from './types.js';

export type { Tracing, WorkerTracing } from './types.js';

const TRACING_OFF: Tracing = {
  spanProcessor: undefined,
  clientInterceptors: [],
  worker: undefined,
  shutdown: () => Promise.resolve(),
};

/**
 * Sets up the tracing of a process for `role` (`worker`, `intake`, `receiver`): once, since the tracer provider it
 * registers is process-wide. Off, it loads nothing of OpenTelemetry (some 4 MB of a worker's heap).
 */
export async function setUpTracing(config: ObservabilityConfig, role: string): Promise<Tracing> {
  if (config.otlpEndpoint === undefined) return TRACING_OFF;
  const { startOtlpTracing } = await import('./otlp-tracing.js');
  return startOtlpTracing(config.otlpEndpoint, config.serviceName ?? `eligibility-${role}`);
}
