import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { sql } from 'kysely';
import type { Store } from '../../src/store/database.js';
import { eventMs } from '../event-time.js';
import { callIntake, type IntakeEndpoint } from '../faults/intake-http.js';
import { completion, spread, startPaced, type Completion, type Spread } from './paced.js';
import { firstArrivals, subscribe, subjectOf } from './receiving.js';
import { until } from '../until.js';

export type { Spread } from './paced.js';

/** What the latency scenario runs against: the fault stack, or one side of the before/after bench. */
export interface EventsTarget {
  client: Client;
  /** Where verifications start, with the suite's short timing (they complete a second after creation). */
  intake: IntakeEndpoint;
  /** Where endpoints are made: the intake API of the code measured. */
  endpoints: { intake: IntakeEndpoint };
  /** The database the worker delivers from (read with plain SQL: the schema is the code measured's). */
  db: Store['db'];
  workerOutput(): string;
}

export interface LatencyOptions {
  rate: number;
  seconds: number;
  /** Every n-th verification's history is read for the breakdown. */
  sampleEvery: number;
}

export interface LatencyFigures {
  started: number;
  refusedStarts: number;
  achievedRate: number;
  /** `timestamp` of the event (the workflow's time when it entered the stage) to its first arrival. */
  fromTimestamp: Spread;
  /** The sample's parts: stage → first attempt began (the delivery log), attempt → arrival. */
  parts: { toAttempt: Spread; toArrival: Spread };
  /** Events not arrived 2 min after every verification had closed. */
  missing: number;
  /** The first few missing events and what their emitters' histories and the delivery log say. */
  missingNotes: string[];
  /** Deliveries at the live endpoint whose signature `Webhook.verify` accepted, and refused. */
  signatures: { verified: number; refused: number };
  /** Requests that reached the endpoint that never answers. */
  stuckAttempts: number;
  /** The delivery log (`event_deliveries`) of each endpoint: attempts by outcome; rows left in `event_outbox`. */
  outbox: { live: Record<string, number>; dead: Record<string, number>; leftLive: number; leftDead: number };
  /** The sample's verifications: started → their `created` event's timestamp (the worker keeping up, or not). */
  startToCreated: Spread;
  /** The verifications of the run (events on), timed from Temporal's start and close times. */
  completion: Completion;
}

async function attemptsByStatus(db: Store['db'], endpointId: string): Promise<Record<string, number>> {
  const { rows } = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from event_deliveries where endpoint_id = ${endpointId} group by status
  `.execute(db);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

async function outboxRows(db: Store['db'], endpointId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from event_outbox where endpoint_id = ${endpointId}
  `.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * Issue 34's latency: verifications started through the intake API at `rate` a second for `seconds`, for a tenant with
 * two endpoints subscribed to the same events, one answering at once and one that never answers (every attempt times
 * out). Per event of the first: from its stage change to its first arrival. The stage change is the event's
 * `timestamp`: the workflow's clock in the workflow task that entered the stage (the server's time for that task), the
 * moment the verification itself knows the stage, before its local activity keeps the event.
 */
export async function latencyScenario(
  target: EventsTarget,
  o: LatencyOptions,
  log: (line: string) => void,
): Promise<LatencyFigures> {
  const { client, db } = target;
  const run = randomBytes(3).toString('hex');
  const tenant = `latency-${run}`;
  const good = await subscribe(target.endpoints, tenant);
  const dead = await subscribe(target.endpoints, tenant, () => 'hang');
  const paced = await startPaced(target.intake, { tenant, prefix: `lat-${run}`, rate: o.rate, seconds: o.seconds });
  const { ids, startedAt: t0 } = paced;
  const count = ids.length + paced.refused;
  log(`  ${count} started in ${((Date.now() - t0) / 1000).toFixed(1)} s (${paced.achievedRate.toFixed(1)}/s)`);
  const wanted = new Set(ids.flatMap((id) => [`${id}|verification.created`, `${id}|verification.completed`]));
  const arrivedPairs = () => new Set(good.receiver.received.map((r) => `${subjectOf(r)}|${r.event.type}`));
  // Every verification closed first: a worker behind the starts enters its stages late, and their events are not lost
  // for that. Then 2 min for what is still on its way.
  const done = await completion(client, ids);
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
  // What became of the first few events that did not arrive: the emitter's markers, and the delivery log.
  const missingNotes: string[] = [];
  for (const pair of [...wanted].filter((p) => !got.has(p)).slice(0, 5)) {
    const [workflowId, type] = pair.split('|') as [string, string];
    const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const kinds = events
      .filter((e) => e.markerRecordedEventAttributes)
      .map((e) => `marker at +${Math.round(eventMs(e) - t0)} ms`);
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
    `.execute(db);
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
    const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const mine = firsts.filter((r) => subjectOf(r) === workflowId);
    const created = mine.find((r) => r.event.type === 'verification.created');
    if (created && events[0]) startToCreated.push(Date.parse(created.event.timestamp) - eventMs(events[0]));
    for (const received of mine) {
      const stageAt = Date.parse(received.event.timestamp);
      const attempt = await sql<{ at: Date }>`
        select attempted_at as at from event_deliveries
        where event_id = ${received.event.id} and endpoint_id = ${good.endpointId} and attempt = 1
      `.execute(db);
      const attemptAt = attempt.rows[0] ? new Date(attempt.rows[0].at).getTime() : Number.NaN;
      if (Number.isNaN(attemptAt)) continue;
      toAttempt.push(attemptAt - stageAt);
      toArrival.push(byId.get(received.event.id)!.at - attemptAt);
    }
  }
  const fromTimestamp = firsts
    .filter((r) => wanted.has(`${subjectOf(r)}|${r.event.type}`))
    .map((r) => r.at - Date.parse(r.event.timestamp));
  const outbox = {
    live: await attemptsByStatus(db, good.endpointId),
    dead: await attemptsByStatus(db, dead.endpointId),
    leftLive: await outboxRows(db, good.endpointId),
    leftDead: await outboxRows(db, dead.endpointId),
  };
  await good.receiver.stop();
  await dead.receiver.stop();
  const missing = [...wanted].filter((p) => !got.has(p)).length;
  return {
    started: count,
    refusedStarts: paced.refused,
    achievedRate: paced.achievedRate,
    fromTimestamp: spread(fromTimestamp),
    parts: { toAttempt: spread(toAttempt), toArrival: spread(toArrival) },
    missing,
    missingNotes:
      missing > 0
        ? [
            ...missingNotes,
            ...(await Promise.all(
              [good, dead].map(async (sink) => {
                const shown = await callIntake(target.endpoints.intake, 'GET', `/event-endpoints/${sink.endpointId}`);
                return `endpoint ${sink === good ? 'live' : 'dead'}: ${JSON.stringify(shown.body)}`;
              }),
            )),
            ...target
              .workerOutput()
              .split('\n')
              .filter((line) => /"level":"(error|fatal)"|determinism/i.test(line))
              .slice(-8)
              .map((line) => `worker: ${line.slice(0, 400)}`),
          ]
        : [],
    signatures: { verified: good.verified, refused: good.refused },
    stuckAttempts: dead.receiver.received.length,
    outbox,
    startToCreated: spread(startToCreated),
    completion: done,
  };
}
