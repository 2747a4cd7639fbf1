/**
 * A worker's own `/metrics` (its Prometheus page, the SDK core's merged in), read between two moments of a benchmark:
 * where workflow tasks wait (at the server for a slot, or in the worker) and what the sticky cache does. Figures for a
 * benchmark's progress lines, so a run that falls short says where.
 */
export type MetricsSample = Map<string, number>;

/** Every sample of the page, its labels dropped and the values of one name summed. */
export async function readWorkerMetrics(workerHttpPort: string | number): Promise<MetricsSample> {
  const text = await (await fetch(`http://127.0.0.1:${workerHttpPort}/metrics`)).text();
  const sums: MetricsSample = new Map();
  for (const line of text.split('\n')) {
    // Label values are quoted and may hold braces (`endpoint="GET /v2/verifications/{id}"`).
    const match = /^([a-zA-Z_:][\w:]*)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})?\s+(\S+)$/.exec(line);
    if (!match) continue;
    if (match[1]!.endsWith('_bucket')) continue;
    const value = Number(match[3]);
    if (Number.isFinite(value)) sums.set(match[1]!, (sums.get(match[1]!) ?? 0) + value);
  }
  return sums;
}

/** Workflow tasks completed between `before` and `after` per second, their mean wait at the server (schedule to start)
 * and in the worker (execution), cache misses and the governed rate. */
export function describeInterval(before: MetricsSample, after: MetricsSample, seconds: number): string {
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  const mean = (name: string) => {
    const count = delta(`${name}_count`);
    return count > 0 ? `${((1000 * delta(`${name}_sum`)) / count).toFixed(0)} ms` : '-';
  };
  const tasks = delta('temporal_workflow_task_execution_latency_count');
  return (
    `workflow tasks ${(tasks / seconds).toFixed(1)}/s, waited at the server ${mean('temporal_workflow_task_schedule_to_start_latency')}, ` +
    `ran ${mean('temporal_workflow_task_execution_latency')}; cache misses ${(delta('temporal_sticky_cache_miss') / seconds).toFixed(1)}/s; ` +
    `activity waits ${mean('temporal_activity_schedule_to_start_latency')}; governed rate ${after.get('eligibility_governed_rate_per_second') ?? '-'}/s`
  );
}
