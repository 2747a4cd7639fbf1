import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  type OpenTelemetryWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { Tracing } from '../src/tracing/tracing.js';

interface WorkerTracing {
  sinks: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }>;
  activityInterceptors: ActivityInterceptorsFactory[];
}

/** The spans of the workflows' interceptor (bundled) go nowhere when tracing is off. */
const dropSpans: WorkerTracing = { sinks: { exporter: { export: { fn: () => undefined } } }, activityInterceptors: [] };

function traced(spanProcessor: SpanProcessor, resource: Resource): WorkerTracing {
  return {
    // Workflow spans are made in the sandbox and leave it through this sink, once (never again on replay).
    sinks: { exporter: makeWorkflowExporter(spanProcessor, resource) },
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
  };
}

/** The worker's part of tracing (src/tracing): the workflows' span sink and the activities' interceptors. */
export function workerTracing(tracing: Tracing | undefined): WorkerTracing {
  return tracing?.spanProcessor ? traced(tracing.spanProcessor, tracing.resource) : dropSpans;
}
