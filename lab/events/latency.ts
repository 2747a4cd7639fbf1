import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { eventMs } from '../event-time.js';
import { callIntake } from '../faults/intake-http.js';
import { requestFor } from '../faults/rows.js';
import type { FaultStack } from '../faults/stack.js';
import { percentile } from '../traffic/lanes-stack.js';
import { dispatchersQuery, firstArrivals, subscribe, subjectOf } from './receiving.js';
import { until } from '../until.js';

export interface LatencyOptions {
  rate: number;
  seconds: number;
  /** Every n-th verification's history is read for the breakdown. */
  sampleEvery: number;
  /** Deliveries under way per endpoint at most (the dispatcher's policy), for the figure beside the cycle. */
  concurrency: number;
}

export interface Spread {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

export interface LatencyFigures {
  started: number;
  refusedStarts: number;
  achievedRate: number;
  /** `timestamp` of the event (the workflow's time when it entered the stage) to its first arrival. */
  fromTimestamp: Spread;
  /** The sample's parts: stage → first attempt began (the delivery log), attempt → arrival. */
  parts: { toAttempt: Spread; toArrival: Spread };
  /** Events the dispatchers were handed (signals received), for either endpoint: the dead one's, and any failed first. */
  handedOver: number;
  missing: number;
  /** The first few missing events and what their emitters' histories and the delivery log say. */
  missingNotes: string[];
  stuckAttempts: number;
  dispatcherRuns: number;
  /**
   * A delivery's cycle in the dispatcher's histories (completed deliveries): scheduled → started (the events queue),
   * started → completed (the activity: database reads and writes, the POST), completed → the dispatcher's next workflow
   * task completed (when the slot is given to the next delivery).
   */
  cycle: { queued: Spread; running: Spread; turnaround: Spread };
  /** The dispatcher's workflow tasks: scheduled → started (waiting for the worker, which the verifications share). */
  dispatcherTaskQueued: Spread;
  /** The dispatcher's workflow tasks that timed out (e.g. on the worker's sticky queue) or failed. */
  taskTrouble: { timedOut: number; failed: number };
  /** The sample's verifications: started → their `created` event's timestamp (the worker keeping up, or not). */
  startToCreated: Spread;
  /** Deliveries a second one endpoint can take at most: concurrency ÷ the median cycle. */
  ceilingPerSecond: number;
  /** Events a second the run sent the endpoint. */
  offeredPerSecond: number;
}

const spread = (values: number[]): Spread => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: values.length ? Math.max(...values) : Number.NaN,
  n: values.length,
});

/**
 * Issue 34's latency: verifications started through the intake API at `rate` a second for `seconds`, for a tenant with
 * two endpoints subscribed to the same events, one answering at once and one that never answers (every attempt times
 * out). Per event of the first: from its stage change to its first arrival. The stage change is the event's
 * `timestamp`: the workflow's clock in the workflow task that entered the stage (the server's time for that task), the
 * moment the verification itself knows the stage, before its local activity keeps the event and the worker's first
 * attempt begins.
 */
export async function latencyScenario(
  stack: FaultStack,
  o: LatencyOptions,
  log: (line: string) => void,
): Promise<LatencyFigures> {
  const run = randomBytes(3).toString('hex');
  const tenant = `latency-${run}`;
  const good = await subscribe(stack, tenant);
  const dead = await subscribe(stack, tenant, () => 'hang');
  const count = Math.round(o.rate * o.seconds);
  const ids: string[] = [];
  let refusedStarts = 0;
  const t0 = Date.now();
  const starts: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    await sleep(Math.max(0, t0 + (i * 1000) / o.rate - Date.now()));
    const id = `lat-${run}-${i}`;
    starts.push(
      callIntake(stack.intake, 'POST', '/verifications', { ...requestFor('v2', id), tenant }).then((answer) => {
        if (answer.status === 202) ids.push((answer.body as { workflowId: string }).workflowId);
        else refusedStarts += 1;
      }),
    );
  }
  await Promise.all(starts);
  const achievedRate = count / ((Date.now() - t0) / 1000);
  log(`  ${count} started in ${((Date.now() - t0) / 1000).toFixed(1)} s (${achievedRate.toFixed(1)}/s)`);
  const wanted = new Set(ids.flatMap((id) => [`${id}|verification.created`, `${id}|verification.completed`]));
  const arrivedPairs = () => new Set(good.receiver.received.map((r) => `${subjectOf(r)}|${r.event.type}`));
  // The arrived set built once per look: built per wanted event, the look blocked this process (and the receiver's
  // clock with it) for a second at a time once thousands had arrived.
  await until(
    () => {
      const arrived = arrivedPairs();
      return [...wanted].every((p) => arrived.has(p));
    },
    Date.now() + 120_000,
    500,
  );
  const firsts = firstArrivals(good.receiver.received);
  const got = arrivedPairs();
  // What became of the first few events that did not arrive: the emitter's local activities, as its history tells.
  const missingNotes: string[] = [];
  for (const pair of [...wanted].filter((p) => !got.has(p)).slice(0, 5)) {
    const [workflowId] = pair.split('|') as [string];
    const events = (await stack.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const kinds = events
      .filter((e) => e.markerRecordedEventAttributes)
      .map(
        (e) =>
          `${Object.keys(e)
            .find((k) => k.endsWith('Attributes'))!
            .replace('EventAttributes', '')} at +${Math.round(eventMs(e) - t0)} ms`,
      );
    const [, type] = pair.split('|') as [string, string];
    const kept = await sql<{
      id: string;
      endpoint_id: string | null;
      attempt: number | null;
      status: string | null;
      at: Date | null;
    }>`
      select e.id, d.endpoint_id, d.attempt, d.status, d.attempted_at as at
      from events e left join event_deliveries d on d.event_id = e.id
      where e.type = ${type} and e.payload::text like ${`%"${workflowId}"%`}
    `.execute(stack.store!.db);
    const deliveries = kept.rows.map(
      (r) =>
        `${r.id} ${r.endpoint_id === good.endpointId ? 'live' : r.endpoint_id === dead.endpointId ? 'dead' : '-'} ` +
        `#${r.attempt} ${r.status} +${r.at ? new Date(r.at).getTime() - t0 : '-'} ms`,
    );
    missingNotes.push(`${pair}: ${kinds.join(', ')}; log: ${deliveries.join('; ') || 'no event row'}`);
  }

  // The sample's parts, from the event's timestamp and the first attempt's line in the delivery log.
  const toAttempt: number[] = [];
  const toArrival: number[] = [];
  const startToCreated: number[] = [];
  const byId = new Map(firsts.map((r) => [r.event.id, r]));
  const sample = ids.filter((_, i) => i % o.sampleEvery === 0);
  for (const workflowId of sample) {
    const events = (await stack.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const created = firsts.find((r) => subjectOf(r) === workflowId && r.event.type === 'verification.created');
    if (created && events[0]) startToCreated.push(Date.parse(created.event.timestamp) - eventMs(events[0]));
    const mine = firsts.filter((r) => subjectOf(r) === workflowId);
    // The emitter sends its events one after another, in the order it emitted them.
    mine.sort((a, b) => Date.parse(a.event.timestamp) - Date.parse(b.event.timestamp));
    for (const received of mine) {
      const stageAt = Date.parse(received.event.timestamp);
      const attempt = await sql<{ at: Date }>`
        select attempted_at as at from event_deliveries
        where event_id = ${received.event.id} and endpoint_id = ${good.endpointId} and attempt = 1
      `.execute(stack.store!.db);
      const attemptAt = attempt.rows[0] ? new Date(attempt.rows[0].at).getTime() : Number.NaN;
      toAttempt.push(attemptAt - stageAt);
      toArrival.push(byId.get(received.event.id)!.at - attemptAt);
    }
  }
  const fromTimestamp = firsts
    .filter((r) => wanted.has(`${subjectOf(r)}|${r.event.type}`))
    .map((r) => r.at - Date.parse(r.event.timestamp));
  const cycle = { queued: [] as number[], running: [] as number[], turnaround: [] as number[] };
  const taskQueued: number[] = [];
  let runs = 0;
  let handedOver = 0;
  const taskTrouble = { timedOut: 0, failed: 0 };
  const runNotes: string[] = [];
  for await (const info of stack.client.workflow.list({ query: dispatchersQuery(tenant) })) {
    runs += 1;
    const rel = (d: Date | undefined) => (d ? `+${d.getTime() - t0} ms` : 'open');
    runNotes.push(`dispatcher run ${rel(info.startTime)} to ${rel(info.closeTime)} (${info.status.name})`);
    const events = (await stack.client.workflow.getHandle(info.workflowId, info.runId).fetchHistory()).events ?? [];
    const byId = new Map(events.map((e) => [Number(e.eventId), e]));
    handedOver += events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'redeliver').length;
    taskTrouble.timedOut += events.filter((e) => e.workflowTaskTimedOutEventAttributes).length;
    taskTrouble.failed += events.filter((e) => e.workflowTaskFailedEventAttributes).length;
    for (const e of events) {
      const task = e.workflowTaskStartedEventAttributes;
      const taskScheduled = task && byId.get(Number(task.scheduledEventId));
      if (taskScheduled) taskQueued.push(eventMs(e) - eventMs(taskScheduled));
      const done = e.activityTaskCompletedEventAttributes;
      if (!done) continue;
      const scheduled = byId.get(Number(done.scheduledEventId));
      const started = byId.get(Number(done.startedEventId));
      const next = events.find((n) => Number(n.eventId) > Number(e.eventId) && n.workflowTaskCompletedEventAttributes);
      if (!scheduled || !started || !next) continue;
      cycle.queued.push(eventMs(started) - eventMs(scheduled));
      cycle.running.push(eventMs(e) - eventMs(started));
      cycle.turnaround.push(eventMs(next) - eventMs(e));
    }
  }
  const median = (v: number[]) => percentile(v, 50);
  const cycleMs = median(cycle.queued) + median(cycle.running) + median(cycle.turnaround);
  await good.receiver.stop();
  await dead.receiver.stop();
  return {
    started: count,
    refusedStarts,
    achievedRate,
    fromTimestamp: spread(fromTimestamp),
    parts: { toAttempt: spread(toAttempt), toArrival: spread(toArrival) },
    handedOver,
    missing: [...wanted].filter((p) => !got.has(p)).length,
    missingNotes:
      missingNotes.length > 0
        ? [
            ...missingNotes,
            ...runNotes,
            ...(await Promise.all(
              [good, dead].map(async (sink) => {
                const shown = await callIntake(stack.intake, 'GET', `/event-endpoints/${sink.endpointId}`);
                return `endpoint ${sink === good ? 'live' : 'dead'}: ${JSON.stringify(shown.body)}`;
              }),
            )),
            ...stack.worker
              .output()
              .split('\n')
              .filter((line) => /"level":"(error|fatal)"|determinism/i.test(line))
              .slice(-8)
              .map((line) => `worker: ${line.slice(0, 400)}`),
          ]
        : [],
    stuckAttempts: dead.receiver.received.length,
    dispatcherRuns: runs,
    cycle: { queued: spread(cycle.queued), running: spread(cycle.running), turnaround: spread(cycle.turnaround) },
    dispatcherTaskQueued: spread(taskQueued),
    taskTrouble,
    startToCreated: spread(startToCreated),
    ceilingPerSecond: o.concurrency / (cycleMs / 1000),
    offeredPerSecond: 2 * achievedRate,
  };
}
