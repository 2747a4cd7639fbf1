import { AsyncHooksContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { Tracing } from './types.js';

/**
 * Tracing on: spans go to the collector at `endpoint` over OTLP/HTTP. Its own module, loaded only when tracing is on,
 * so that a process without it never loads OpenTelemetry's SDK and exporter.
 */
export function startOtlpTracing(endpoint: string, serviceName: string): Tracing {
  const resource = new Resource({ 'service.name': serviceName });
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // The context manager lets a span started in an activity be the parent of the spans under it.
  provider.register({ contextManager: new AsyncHooksContextManager().enable() });
  return {
    spanProcessor,
    clientInterceptors: [new OpenTelemetryWorkflowClientInterceptor()],
    worker: {
      // Workflow spans are made in the sandbox and leave it through this sink, once (never again on replay).
      sinks: { exporter: makeWorkflowExporter(spanProcessor, resource) },
      activityInterceptors: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    shutdown: () => provider.shutdown(),
  };
}
