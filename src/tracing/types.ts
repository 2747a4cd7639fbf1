import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';

/** A worker's part of tracing: the workflows' span sink and the activities' interceptors. */
export interface WorkerTracing {
  sinks: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }>;
  activityInterceptors: ActivityInterceptorsFactory[];
}

/**
 * OpenTelemetry tracing of a process (docs/operating/observability.md): off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is
 * set, then spans go to that collector over OTLP/HTTP. Temporal's interceptors
 * (`@temporalio/interceptors-opentelemetry`) make the spans and carry the trace through Temporal headers: client start
 * → workflow → activities. Span attributes are workflow and activity types and ids, never payloads (which are encrypted
 * anyway).
 */
export interface Tracing {
  /** Where spans go; undefined when tracing is off. */
  spanProcessor: SpanProcessor | undefined;
  /** Interceptors of a Temporal client: empty when tracing is off. */
  clientInterceptors: WorkflowClientInterceptor[];
  /** A worker's part; undefined when tracing is off. */
  worker: WorkerTracing | undefined;
  /** Sends the spans still buffered; call before the process exits. */
  shutdown(): Promise<void>;
}
