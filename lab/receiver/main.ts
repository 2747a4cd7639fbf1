/**
 * `npm run bench:receiver [-- --deliveries 1000] [--concurrency 32] [--rounds 2] [--warmup 200] [--waiters 50]
 * [--stagger-ms 100] [--grace-spread-ms 100]`:
 * issue 37's acceptance of the webhook receiver, side by side in one run on one dev server (lab/receiver/stack.ts):
 * - throughput: signed `discovery.updated` deliveries per second through the receiver beside bare signal-with-starts
 *   per second (the receiver's one call, made from a client), alternating in rounds, each delivery or call for a new
 *   discovery that has completed, after `--warmup` untimed of each (a receiver in service is a warm process, not one
 *   whose code the JIT has not seen yet); deliveries answered 503 (the receiver's 4 s Temporal deadline, warm-up
 *   included);
 * - latency, once every `discovery-<id>` of the throughput phases has closed: `--waiters` discoveries, each awaited by
 *   a verification registered with `discovery-<id>`, completed and then delivered one every `--stagger-ms`, and again
 *   all at once: delivery sent → the discovery fetched by `discovery-<id>` (its activity's completion in history,
 *   server clock) and → handed to the verification; the staggered verifications close within the phase, each after
 *   a grace of 50 ms plus a share of `--grace-spread-ms` of its own, so that closings come at every phase of the
 *   deliveries, as a day's closings do (0: each after 50 ms, one step behind its delivery and in step with the next);
 * - the receiver's CPU per delivery in the timed rounds (its process, from `/proc`), and this process's per call in
 *   each phase: the sender's (undici's `request`, as light as a stand-in for the service's machines can be) beside
 *   the bare client's;
 * - billed actions of the discovery-by-webhook path per verification, with `discovery-<id>`'s share, beside the
 *   path's budget (8 + 4, docs/operating/cost-and-capacity.md).
 * Prints each figure beside its target or budget; a missed one is a figure, not a failure (exit 0).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { startVerification } from '../../src/temporal/start-verification.js';
import { table } from '../../src/text-format.js';
import { and, ofType, withStatus } from '../../src/temporal/visibility-query.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { billedActions, type HistoryEvent } from '../../testing/billed-actions.js';
import { eventMs } from '../event-time.js';
import { until } from '../until.js';
import { percentile } from '../percentile.js';
import { signalSteps } from './signal-steps.js';
import { forEachLimited, numberArg } from '../bench-stack.js';
import { processCpuMs, processTree } from '../proc-stats.js';
import {
  bareSignalWithStart,
  completeDiscovery,
  deliver,
  newDiscovery,
  startReceiverStack,
  type ReceiverStack,
} from './stack.js';
import { discoveryWaitersQuery } from '../../workflows/discovery/discovery.js';

const deliveries = numberArg('deliveries', 1000);
const concurrency = numberArg('concurrency', 32);
const rounds = numberArg('rounds', 2);
const warmup = numberArg('warmup', 200, { zero: true });
const waiters = numberArg('waiters', 50);
const staggerMs = numberArg('stagger-ms', 100);
const graceSpreadMs = numberArg('grace-spread-ms', staggerMs, { zero: true });
const t0 = Date.now();
const log = (line: string) => console.log(`[${String(Math.round((Date.now() - t0) / 1000)).padStart(5)} s] ${line}`);
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const not200 = (statuses: number[]) => statuses.filter((status) => status !== 200).length;
/**
 * The discovery-by-webhook path's budget of billed actions (docs/operating/cost-and-capacity.md#the-action-budget):
 * the verification's, then its `discovery-<id>`'s. A path's budget must not grow.
 */
const BUDGET = { verification: 8, owner: 4 };

async function discoveries(r: ReceiverStack, n: number, complete = false): Promise<string[]> {
  const ids: string[] = [];
  await forEachLimited(n, 16, async () => void ids.push(await newDiscovery(r.stack, complete)));
  return ids;
}

/**
 * A timed phase: its calls per second, and this process's CPU per call meanwhile (the sender or the bare client, and the
 * sandbox the worker's fetches reach), read as the receiver's is.
 */
interface Timed {
  perSecond: number;
  cpuMs: number;
}

async function timed(n: number, task: (i: number) => Promise<void>): Promise<Timed> {
  const [started, cpuBefore] = [performance.now(), processCpuMs(process.pid)];
  await forEachLimited(n, concurrency, task);
  return { perSecond: n / ((performance.now() - started) / 1000), cpuMs: (processCpuMs(process.pid) - cpuBefore) / n };
}

/** The sandbox's discovery fetches so far (each new `discovery-<id>` makes one at once, finds it complete, closes). */
async function fetchesSoFar(r: ReceiverStack): Promise<number> {
  const res = await fetch(`${r.stack.sandboxUrl}/sandbox/stats`);
  const stats = (await res.json()) as { calls: Record<string, Record<string, number>> };
  return Object.values(stats.calls['GET /v1/discovery/:discoveryId'] ?? {}).reduce((a, b) => a + b, 0);
}

/** Waits (up to a minute) until the worker has made the first fetch of every workflow started so far. */
async function settle(r: ReceiverStack, started: number): Promise<void> {
  await until(async () => (await fetchesSoFar(r)) >= started, Date.now() + 60_000);
}

async function throughput(r: ReceiverStack) {
  const bare: Timed[] = [];
  const received: Timed[] = [];
  let receiverCpuMs = 0;
  const statuses = new Map<number, number>();
  let started = 0;
  const sendThroughReceiver = async (discoveryId: string) => {
    const status = await deliver(r.receiverUrl, discoveryId, `evt_${randomUUID()}`);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  };
  if (warmup > 0) {
    const [forBare, forReceiver] = [await discoveries(r, warmup, true), await discoveries(r, warmup, true)];
    await forEachLimited(warmup, concurrency, (i) => bareSignalWithStart(r.stack, forBare[i]!, `evt_${randomUUID()}`));
    await forEachLimited(warmup, concurrency, (i) => sendThroughReceiver(forReceiver[i]!));
    started += 2 * warmup;
    log(`warmed up: ${warmup} bare signal-with-starts and ${warmup} deliveries, untimed`);
  }
  for (let round = 1; round <= rounds; round += 1) {
    const [forBare, forReceiver] = [await discoveries(r, deliveries, true), await discoveries(r, deliveries, true)];
    const bareRun = async () => {
      bare.push(await timed(deliveries, (i) => bareSignalWithStart(r.stack, forBare[i]!, `evt_${randomUUID()}`)));
      log(`round ${round}: bare signal-with-starts ${bare.at(-1)!.perSecond.toFixed(1)}/s`);
    };
    const receiverRun = async () => {
      const cpuBefore = processCpuMs(...processTree(r.receiverPid));
      received.push(await timed(deliveries, (i) => sendThroughReceiver(forReceiver[i]!)));
      receiverCpuMs += processCpuMs(...processTree(r.receiverPid)) - cpuBefore;
      log(`round ${round}: deliveries through the receiver ${received.at(-1)!.perSecond.toFixed(1)}/s`);
    };
    // Each phase starts once the worker has caught up with the last (its new workflows' first fetches), and the
    // order alternates by round, so neither side runs beside the other's aftermath more often.
    for (const phase of round % 2 === 1 ? [bareRun, receiverRun] : [receiverRun, bareRun]) {
      await settle(r, started);
      await phase();
      started += deliveries;
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const perDelivery = receiverCpuMs / (rounds * deliveries);
  return {
    bare: mean(bare.map((b) => b.perSecond)),
    received: mean(received.map((d) => d.perSecond)),
    receiverCpuMs: perDelivery,
    benchCpuMs: { bare: mean(bare.map((b) => b.cpuMs)), received: mean(received.map((d) => d.cpuMs)) },
    statuses,
    started,
  };
}

/**
 * Waits (up to 2 minutes) until every `discovery-<id>` the throughput phases started has closed, as visibility lists
 * them: the latency phases then time the path on a quiet server, not behind the tail of thousands of workflows.
 */
async function drained(r: ReceiverStack, started: number): Promise<void> {
  const since = Date.now();
  // Closed implies fetched: each fetches its discovery, finds it complete and closes, so this one count suffices.
  const closed = and(ofType(WorkflowType.discovery), withStatus('Completed'));
  let seen = 0;
  await until(
    async () => (seen = (await r.stack.client.workflow.count(closed)).count) >= started,
    since + 120_000,
    500,
  );
  log(`${seen} of ${started} closed, ${((Date.now() - since) / 1000).toFixed(1)} s after the last phase`);
}

interface Waiting {
  discoveryId: string;
  verification: WorkflowHandle;
  owner: WorkflowHandle;
}

/** The shortest grace that lets a verification close within the run. */
const GRACE_MS = 50;

/**
 * The `i`th verification's grace: `GRACE_MS` plus its share of `spreadMs`, the shares spread evenly over it in any run
 * of consecutive verifications (the golden ratio's multiples, modulo 1), the same in every run.
 */
const graceMs = (i: number, spreadMs: number) => GRACE_MS + ((i * 0.6180339887) % 1) * spreadMs;

/** `n` discoveries, each awaited by one verification registered with its `discovery-<id>`, then completed quietly. */
async function waitingVerifications(r: ReceiverStack, n: number, spreadMs = 0): Promise<Waiting[]> {
  const ids = await discoveries(r, n);
  const waiting: Waiting[] = [];
  await forEachLimited(n, 8, async (i) => {
    const timing = { pollInitialSeconds: 3600, pollMaxSeconds: 3600, graceSeconds: graceMs(i, spreadMs) / 1000 };
    const discoveryId = ids[i]!;
    const request = {
      patient: { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '12/09/1976', state: 'NY' },
      placeOfServiceCode: '11',
      specialtyCode: 'PRC',
      discoveryId,
    };
    const { workflowId } = await startVerification(r.stack.client, request, { taskQueue: r.stack.taskQueue, timing });
    // In order: the deliveries go in this order, so consecutive ones have graces spread over `spreadMs`.
    waiting[i] = {
      discoveryId,
      verification: r.stack.client.workflow.getHandle(workflowId),
      owner: r.stack.client.workflow.getHandle(discoveryWorkflowId(discoveryId)),
    };
  });
  log(`${n} verifications started; waiting for their registrations`);
  const registerBy = Date.now() + 120_000;
  for (const [i, w] of waiting.entries()) {
    for (;;) {
      const registered = await w.owner.query(discoveryWaitersQuery).catch(() => []);
      if (registered.length > 0) break;
      if (Date.now() > registerBy) throw new Error(`${i} of ${n} verifications registered within 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  log('registered; completing their discoveries');
  // The sandbox has no subscription here: completing sends nothing, the bench's deliveries are the webhooks.
  await forEachLimited(n, 8, (i) => completeDiscovery(r.stack, waiting[i]!.discoveryId));
  return waiting;
}

/** The steps from a delivery to its fetch, in order, as `discovery-<id>`'s history shows them. */
const STEPS = ['signalled', 'task started', 'task completed', 'fetch started', 'fetched'] as const;
type Step = (typeof STEPS)[number];

/**
 * Where the time from the delivery to the fetch goes, from `discovery-<id>`'s history (server clock): each step's
 * time since the one before it, the first since the delivery was sent.
 */
function addSteps(steps: Record<Step, number[]>, events: HistoryEvent[], sentAt: number): void {
  const times = signalSteps(events, sentAt, 'discoveryUpdated');
  if (!times) return;
  for (const [k, name] of STEPS.entries()) {
    // A step missing from the history ends the breakdown: the ones after it have nothing to count from.
    if (Number.isNaN(times[k])) return;
    steps[name].push(times[k]!);
  }
}

/** Delivery sent → fetched (`discovery-<id>`'s fetch completed) and → handed (the verification's signal). */
async function latencies(waiting: Waiting[], sentAt: number[], statuses: number[]) {
  const fetched: number[] = [];
  const handed: number[] = [];
  const settleBy = Date.now() + 60_000;
  let unsettled = 0;
  const actions = { verification: 0, owner: 0 };
  const steps = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
  for (const [i, w] of waiting.entries()) {
    // Bounded: a verification whose delivery was lost would otherwise wait for its hourly poll.
    const closed = await Promise.race([
      Promise.all([w.verification.result(), w.owner.result()]).then(() => true),
      sleep(Math.max(0, settleBy - Date.now())).then(() => false),
    ]);
    if (!closed) {
      unsettled += 1;
      continue;
    }
    const ownerEvents: HistoryEvent[] = (await w.owner.fetchHistory()).events ?? [];
    const mine: HistoryEvent[] = (await w.verification.fetchHistory()).events ?? [];
    const fetch = ownerEvents.find((e) => e.activityTaskCompletedEventAttributes);
    const handout = mine.find((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'discoveryHandout');
    if (fetch) fetched.push(eventMs(fetch) - sentAt[i]!);
    addSteps(steps, ownerEvents, sentAt[i]!);
    if (handout) handed.push(eventMs(handout) - sentAt[i]!);
    actions.verification += billedActions(mine);
    actions.owner += billedActions(ownerEvents);
  }
  const spread = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), n: xs.length });
  return {
    fetched: spread(fetched),
    handed: spread(handed),
    steps: Object.fromEntries(Object.entries(steps).map(([k, xs]) => [k, percentile(xs, 50)])) as Record<Step, number>,
    unsettled,
    statuses,
    actions: {
      verification: actions.verification / (waiting.length - unsettled),
      owner: actions.owner / (waiting.length - unsettled),
    },
  };
}

async function staggered(r: ReceiverStack) {
  const waiting = await waitingVerifications(r, waiters, graceSpreadMs);
  const sentAt: number[] = [];
  const sent: Promise<number>[] = [];
  const start = Date.now();
  for (const [i, w] of waiting.entries()) {
    const due = start + i * staggerMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    sentAt[i] = Date.now();
    sent.push(deliver(r.receiverUrl, w.discoveryId, `evt_${randomUUID()}`));
  }
  return latencies(waiting, sentAt, await Promise.all(sent));
}

async function burst(r: ReceiverStack) {
  const waiting = await waitingVerifications(r, waiters);
  const sentAt = waiting.map(() => Date.now());
  const statuses = await Promise.all(waiting.map((w) => deliver(r.receiverUrl, w.discoveryId, `evt_${randomUUID()}`)));
  return latencies(waiting, sentAt, statuses);
}

async function run() {
  log(
    `starting: ${deliveries} deliveries per phase × ${rounds} rounds at ${concurrency} at once; ${waiters} waiters, ` +
      `the staggered ones closing after ${GRACE_MS}–${GRACE_MS + graceSpreadMs} ms of grace`,
  );
  const r = await startReceiverStack();
  try {
    const t = await throughput(r);
    await drained(r, t.started);
    log('latency: staggered');
    const s = await staggered(r);
    log('latency: burst');
    const b = await burst(r);
    const answered503 = t.statuses.get(503) ?? 0;
    const others = [...t.statuses].filter(([code]) => code !== 200 && code !== 503);
    const ratio = t.received / t.bare;
    const ms = (v: number) => `${Math.round(v)} ms`;
    const totalActions = s.actions.verification + s.actions.owner;
    const withinBudget = s.actions.verification <= BUDGET.verification && s.actions.owner <= BUDGET.owner;
    console.log(
      `\n${table(
        ['measure', 'figure', 'target or budget'],
        [
          ['bare signal-with-starts per second', t.bare.toFixed(1), ''],
          ['deliveries through the receiver per second', t.received.toFixed(1), ''],
          ['  ÷ bare', ratio.toFixed(2), `≥ 0.8: ${met(ratio >= 0.8)}`],
          [`the receiver's CPU per delivery (its process, timed rounds)`, `${t.receiverCpuMs.toFixed(2)} ms`, ''],
          [
            "this process's CPU per call: the sender's delivery, the bare call (the sandbox's share in each)",
            `${t.benchCpuMs.received.toFixed(2)} ms, ${t.benchCpuMs.bare.toFixed(2)} ms`,
            '',
          ],
          [
            'deliveries answered 503 (other statuses)',
            `${answered503} of ${deliveries * rounds + warmup}${others.length ? ` (${others.map(([c, n]) => `${n}× ${c}`).join(', ')})` : ''}`,
            `0: ${met(answered503 === 0)}`,
          ],
          [
            `webhook → discovery fetched, ${waiters} staggered ${staggerMs} ms apart`,
            `p50 ${ms(s.fetched.p50)}, p99 ${ms(s.fetched.p99)} (${s.fetched.n})`,
            `p50 ≤ 50 ms, p99 ≤ 250 ms: ${met(s.fetched.p50 <= 50 && s.fetched.p99 <= 250)}`,
          ],
          [
            '  its steps, p50 of each (server clock)',
            Object.entries(s.steps)
              .map(([name, v]) => `${name} +${Math.round(v)}`)
              .join(', '),
            '',
          ],
          ['  → handed to its verification', `p50 ${ms(s.handed.p50)}, p99 ${ms(s.handed.p99)} (${s.handed.n})`, ''],
          [
            '  deliveries not answered 200; verifications not closed in 60 s',
            `${not200(s.statuses)}; ${s.unsettled}`,
            '0; 0',
          ],
          [
            `webhook → discovery fetched, a burst of ${waiters}`,
            `p50 ${ms(b.fetched.p50)}, p99 ${ms(b.fetched.p99)} (${b.fetched.n})`,
            `p99 ≤ 1 s: ${met(b.fetched.p99 <= 1000)}`,
          ],
          ['  → handed to its verification', `p50 ${ms(b.handed.p50)}, p99 ${ms(b.handed.p99)} (${b.handed.n})`, ''],
          [
            '  deliveries not answered 200; verifications not closed in 60 s',
            `${not200(b.statuses)}; ${b.unsettled}`,
            '0; 0',
          ],
          [
            'billed actions per verification by webhook (+ discovery-<id>)',
            `${s.actions.verification.toFixed(1)} + ${s.actions.owner.toFixed(1)} = ${totalActions.toFixed(1)}`,
            `budget ${BUDGET.verification} + ${BUDGET.owner}: ${withinBudget ? 'within' : 'OVER'}`,
          ],
        ],
      )}`,
    );
  } finally {
    await r.stop();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
