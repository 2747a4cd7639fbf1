import { AsyncHooksContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ObservabilityConfig } from '../config.js';

/**
 * OpenTelemetry tracing of a process (DESIGN §11): off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set, then spans go to
 * that collector over OTLP/HTTP. Temporal's interceptors (`@temporalio/interceptors-opentelemetry`) make the spans and
 * carry the trace through Temporal headers: client start → workflow → activities. Span attributes are workflow and
 * activity types and ids, never payloads (which are encrypted anyway).
 */
export interface Tracing {
  /** Where spans go; undefined when tracing is off. */
  spanProcessor: SpanProcessor | undefined;
  resource: Resource;
  /** Interceptors of a Temporal client: empty when tracing is off. */
  clientInterceptors: WorkflowClientInterceptor[];
  /** Sends the spans still buffered; call before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * Sets up the tracing of a process for `role` (`worker`, `intake`, `receiver`): once, since the tracer provider it
 * registers is process-wide.
 */
export function setUpTracing(config: ObservabilityConfig, role: string): Tracing {
  const resource = new Resource({ 'service.name': config.serviceName ?? `eligibility-${role}` });
  if (config.otlpEndpoint === undefined) {
    return { spanProcessor: undefined, resource, clientInterceptors: [], shutdown: () => Promise.resolve() };
  }
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // The context manager lets a span started in an activity be the parent of the spans under it.
  provider.register({ contextManager: new AsyncHooksContextManager().enable() });
  return {
    spanProcessor,
    resource,
    clientInterceptors: [new OpenTelemetryWorkflowClientInterceptor()],
    shutdown: () => provider.shutdown(),
  };
}
