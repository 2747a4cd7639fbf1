import { ConfigError, type WorkerConfig } from '../src/config.js';

/**
 * What a worker's workflow heap must hold: the SDK, the bundle and the activations in flight, plus the cached
 * workflows. Both are at least twice what the lab's `bench:workflow-heap` and `bench:worker-memory` (with --trace-gc)
 * measure, so that V8 keeps room to collect instead of thrashing near its limit.
 */
const BASE_MB = 64;
const PER_CACHED_WORKFLOW_MB = 0.25;

/**
 * The young generation of each heap. V8's default (16 MB semi-spaces, 48 MB per heap) is sized for throughput on a
 * big machine; a small one costs the worker no measurable CPU per verification and keeps its RSS down.
 */
const SEMI_SPACE_MB = 2;

/** The smallest `WORKER_HEAP_MB` that holds `maxCachedWorkflows`. */
export function heapNeededMb(maxCachedWorkflows: number): number {
  return Math.ceil(BASE_MB + maxCachedWorkflows * PER_CACHED_WORKFLOW_MB);
}

/**
 * Refuses a cache that the heap limit cannot hold: such a worker would start, fill its cache over hours and then die
 * of "heap out of memory", taking every workflow task in flight with it.
 */
export function checkCacheFitsHeap(worker: WorkerConfig): void {
  const needed = heapNeededMb(worker.maxCachedWorkflows);
  if (worker.heapMb >= needed) return;
  throw new ConfigError([
    {
      variable: 'WORKER_HEAP_MB',
      message:
        `${worker.heapMb} cannot hold WORKER_MAX_CACHED_WORKFLOWS=${worker.maxCachedWorkflows} ` +
        `(${BASE_MB} MB + 256 kB per cached workflow = ${needed}): raise WORKER_HEAP_MB or lower the cache`,
    },
  ]);
}

/**
 * The V8 flags of a worker process. V8 flags are process-wide, so they bound both heaps: the main thread's (the
 * connection, the codec, the activities) and the workflow thread's that the SDK starts later without limits of its
 * own. Without them V8 sizes each heap from the host's memory, not a container's, and on a large host lets a worker's
 * heap grow to many times its live data.
 */
export function heapFlags(worker: WorkerConfig): string[] {
  return [`--max-old-space-size=${worker.heapMb}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];
}
