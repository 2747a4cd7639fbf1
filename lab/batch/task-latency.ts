import type { Client } from '@temporalio/client';

/** The cumulative buckets of one histogram on a Prometheus page, summed over its labels: upper bound -> count. */
export type Buckets = Map<number, number>;

const HISTOGRAM = 'temporal_workflow_task_execution_latency';

/** The worker's workflow-task execution histogram (the SDK core's, in seconds), from its `/metrics` page. */
export async function readTaskBuckets(workerHttpPort: number): Promise<Buckets> {
  const text = await (await fetch(`http://127.0.0.1:${workerHttpPort}/metrics`)).text();
  const buckets: Buckets = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${HISTOGRAM}_bucket{`)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (le === undefined || !Number.isFinite(value)) continue;
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + value);
  }
  return buckets;
}

export interface TaskFigures {
  tasks: number;
  /** Upper bounds of the buckets holding the 50th and 99th percentile (seconds; Infinity: above the last, 1 s). */
  p50: number;
  p99: number;
  /** Tasks that ran longer than 1 s (the histogram's last bound). */
  overOneSecond: number;
}

/** The tasks between two reads of the histogram. */
export function taskFigures(before: Buckets, after: Buckets): TaskFigures {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const delta = (bound: number) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0);
  const tasks = delta(Number.POSITIVE_INFINITY);
  const at = (p: number) => bounds.find((bound) => delta(bound) >= (p / 100) * tasks) ?? Number.NaN;
  return { tasks, p50: at(50), p99: at(99), overOneSecond: tasks - delta(1) };
}

export const bound = (seconds: number) =>
  seconds === Number.POSITIVE_INFINITY ? '> 1 s' : `≤ ${seconds >= 1 ? `${seconds} s` : `${seconds * 1000} ms`}`;

type Timestamp = { seconds?: { toString(): string } | number | null; nanos?: number | null } | null | undefined;
const millis = (t: Timestamp) => Number(t?.seconds?.toString() ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/** Workflow tasks of some workflows, from their histories: how many, how many over 1 s, the longest and whose. */
export interface HistoryTasks {
  workflows: number;
  tasks: number;
  overOneSecond: number;
  longest: { id: string; ms: number };
}

/**
 * Each task's time from started to completed (or failed, timed out), as the server recorded it: a task that runs local
 * activities stays open until they end, or until the worker heartbeats it.
 */
export async function historyTasks(client: Client, workflowIds: string[]): Promise<HistoryTasks> {
  const figures: HistoryTasks = {
    workflows: workflowIds.length,
    tasks: 0,
    overOneSecond: 0,
    longest: { id: '', ms: 0 },
  };
  for (const id of workflowIds) {
    const { events } = await client.workflow.getHandle(id).fetchHistory();
    let startedAt: number | undefined;
    for (const event of events ?? []) {
      if (event.workflowTaskStartedEventAttributes) startedAt = millis(event.eventTime);
      const ended =
        event.workflowTaskCompletedEventAttributes ??
        event.workflowTaskFailedEventAttributes ??
        event.workflowTaskTimedOutEventAttributes;
      if (!ended || startedAt === undefined) continue;
      const ms = millis(event.eventTime) - startedAt;
      startedAt = undefined;
      figures.tasks += 1;
      if (ms > 1000) figures.overOneSecond += 1;
      if (ms > figures.longest.ms) figures.longest = { id, ms };
    }
  }
  return figures;
}
