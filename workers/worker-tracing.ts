import type { Tracing, WorkerTracing } from '../src/tracing/tracing.js';

/** The spans of the workflows' interceptor (bundled) go nowhere when tracing is off. */
const dropSpans: WorkerTracing = { sinks: { exporter: { export: { fn: () => undefined } } }, activityInterceptors: [] };

/** The worker's part of tracing (src/tracing): the workflows' span sink and the activities' interceptors. */
export function workerTracing(tracing: Tracing | undefined): WorkerTracing {
  return tracing?.worker ?? dropSpans;
}
