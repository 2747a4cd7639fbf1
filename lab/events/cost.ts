import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { localActivityTasks, type HistoryEvent } from '../../testing/billed-actions.js';
import { forEachLimited } from '../bench-stack.js';
import { callIntake } from '../faults/intake-http.js';
import { requestFor } from '../faults/rows.js';
import type { FaultStack } from '../faults/stack.js';
import { firstArrivals, subscribe } from './receiving.js';
import { until } from '../until.js';

export interface CostOptions {
  /** Verifications per round; rounds go off, on, on, off. */
  count: number;
}

export interface CostFigures {
  rounds: { events: 'on' | 'off'; perSecond: number; seconds: number }[];
  onPerSecond: number;
  offPerSecond: number;
  delivered: number;
  /** The on-tenant's: its verifications' emitting (delivery itself costs Temporal nothing). */
  actions: number;
  /** The endpoint's attempts in the delivery log (`event_deliveries`), and its rows left in `event_outbox`. */
  attempts: number;
  leftInOutbox: number;
  /**
   * The emitters' local activities: workflow tasks that recorded one or more (one billed action each), in a sample of
   * each tenant's verifications; `onActions` is the sample's mean times every verification of the on-tenant.
   */
  emitters: { on: number; off: number; sampled: number; onActions: number };
}

/** Starts `count` verifications of `tenant` (16 requests at once) and waits for every one to close. */
async function round(stack: FaultStack, tenant: string, prefix: string, count: number) {
  const ids: string[] = [];
  const t0 = Date.now();
  await forEachLimited(count, 16, async (i) => {
    const answer = await callIntake(stack.intake, 'POST', '/verifications', {
      ...requestFor('v2', `${prefix}-${i}`),
      tenant,
    });
    if (answer.status !== 202) throw new Error(`POST /verifications: ${answer.status} ${JSON.stringify(answer.body)}`);
    ids.push((answer.body as { workflowId: string }).workflowId);
  });
  await forEachLimited(ids.length, 64, (i) =>
    stack.client.workflow
      .getHandle(ids[i]!)
      .result()
      .then(() => undefined),
  );
  const seconds = (Date.now() - t0) / 1000;
  return { ids, seconds, perSecond: count / seconds };
}

const history = async (stack: FaultStack, workflowId: string, runId?: string): Promise<HistoryEvent[]> =>
  (await stack.client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];

/**
 * Issue 34's cost: verifications of a tenant with one endpoint (events on) and of a tenant with none (events off),
 * in alternating rounds on the same worker (off, on, on, off), each round started at once and timed until its last
 * verification has closed: the worker is the bottleneck (the service's limit is far above it). Then the billed actions
 * of the on-tenant's verifications' emitting, per event delivered, and the endpoint's attempts in the delivery log.
 */
export async function costScenario(
  stack: FaultStack,
  o: CostOptions,
  log: (line: string) => void,
): Promise<CostFigures> {
  const run = randomBytes(3).toString('hex');
  const on = `cost-on-${run}`;
  const off = `cost-off-${run}`;
  const sink = await subscribe(stack, on);
  const rounds: CostFigures['rounds'] = [];
  const onIds: string[] = [];
  const offIds: string[] = [];
  for (const [i, events] of (['off', 'on', 'on', 'off'] as const).entries()) {
    const r = await round(stack, events === 'on' ? on : off, `cost-${run}-${i}`, o.count);
    (events === 'on' ? onIds : offIds).push(...r.ids);
    rounds.push({ events, perSecond: r.perSecond, seconds: r.seconds });
    log(
      `  round ${i + 1}, events ${events}: ${o.count} verifications in ${r.seconds.toFixed(1)} s (${r.perSecond.toFixed(1)}/s)`,
    );
  }
  const expected = onIds.length * 2;
  await until(() => firstArrivals(sink.receiver.received).length >= expected, Date.now() + 120_000, 500);
  const delivered = firstArrivals(sink.receiver.received).length;

  const { rows } = await sql<{ attempts: number; left: number }>`
    select (select count(*)::int from event_deliveries where endpoint_id = ${sink.endpointId}) as attempts,
           (select count(*)::int from event_outbox where endpoint_id = ${sink.endpointId}) as left
  `.execute(stack.store!.db);

  // What the emitters paid, from a sample of each tenant's verifications (every event is a local activity).
  const sampled = Math.min(50, onIds.length, offIds.length);
  const emitters = { on: 0, off: 0, sampled, onActions: 0 };
  for (let i = 0; i < sampled; i++) {
    emitters.on += localActivityTasks(await history(stack, onIds[i]!));
    emitters.off += localActivityTasks(await history(stack, offIds[i]!));
  }
  emitters.onActions = sampled > 0 ? Math.round((emitters.on / sampled) * onIds.length) : 0;
  await sink.receiver.stop();
  const mean = (events: 'on' | 'off') => {
    const chosen = rounds.filter((r) => r.events === events);
    return (chosen.length * o.count) / chosen.reduce((s, r) => s + r.seconds, 0);
  };
  return {
    rounds,
    onPerSecond: mean('on'),
    offPerSecond: mean('off'),
    delivered,
    actions: emitters.onActions,
    attempts: rows[0]?.attempts ?? 0,
    leftInOutbox: rows[0]?.left ?? 0,
    emitters,
  };
}
