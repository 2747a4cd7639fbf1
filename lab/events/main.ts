/**
 * `npm run bench:events [-- --only outage,outage-faults,latency,cost] [--rows 1000] [--down-seconds 600]
 * [--max-retry-seconds 5] [--rate 20] [--latency-seconds 60] [--cost-count 300] [--drain-timeout 600]
 * [--endpoint-concurrency 4]`: issue 34's
 * acceptance of outbound events, against real parts (lab/faults/stack.ts with events: a restartable Temporal dev
 * server, the sandbox, `eligibility worker` as a child process with its events worker, the intake API with event
 * endpoints, a throwaway PostgreSQL) and real HTTP receivers that verify every delivery with `standardwebhooks`.
 * The dispatchers retry from 1 s up to `--max-retry-seconds` apart (the policy the intake API gives the dispatcher it
 * starts, as tests shorten it), so deliveries resume within that long of an endpoint's return.
 * Prints each figure beside its target; exits 0 when the bench ran (a missed target is a figure, not a failure), 2 when
 * it could not run.
 */
import { numberArg } from '../bench-stack.js';
import { startFaultStack } from '../faults/stack.js';
import { table } from '../../src/text-format.js';
import { DEFAULT_DELIVERY_POLICY } from '../../workflows/events/events.js';
import { costScenario, type CostFigures } from './cost.js';
import { latencyScenario, type LatencyFigures, type Spread } from './latency.js';
import { outageScenario, type OutageFigures } from './outage.js';

const SCENARIOS = ['outage', 'outage-faults', 'latency', 'cost'] as const;
const t0 = Date.now();
const log = (line: string) => console.log(`[${String(Math.round((Date.now() - t0) / 1000)).padStart(5)} s] ${line}`);

function onlyArg(): Set<string> {
  const at = process.argv.indexOf('--only');
  if (at < 0) return new Set(SCENARIOS);
  const chosen = (process.argv[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = chosen.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
  if (unknown.length > 0 || chosen.length === 0) throw new Error(`--only takes ${SCENARIOS.join(',')}`);
  return new Set(chosen);
}

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '-');
const spreadText = (s: Spread) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (${s.n})`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

function printOutage(f: OutageFigures, o: { rows: number; downSeconds: number; maxRetrySeconds: number }) {
  console.log(`\n${f.label}: ${o.rows} verifications, endpoint down ${o.downSeconds} s`);
  for (const fault of f.faultsDone) console.log(`  fault: ${fault}`);
  console.log(
    table(
      ['measure', 'figure', 'target'],
      [
        [
          'verification outcomes',
          Object.entries(f.outcomes)
            .map(([k, n]) => `${n} ${k}`)
            .join(', '),
          '',
        ],
        ['events the outcomes imply (+ the batch 2)', String(f.expected), ''],
        ['delivered (first arrivals of those)', String(f.delivered), `${f.expected}`],
        ['lost', String(f.lost), `0: ${met(f.lost === 0)}`],
        ['events not implied by an outcome', String(f.unexpected), '0'],
        ['signatures verified by Webhook.verify', `${f.verified} of ${f.verified + f.refused}`, 'all'],
        ['deliveries / redeliveries of a webhook-id', `${f.deliveries} / ${f.redeliveries}`, ''],
        [
          'an event under two webhook-ids; a redelivery with another body',
          `${f.doubleEvents}; ${f.changedBodies}`,
          '0; 0',
        ],
        ['verifications whose events arrived out of order', String(f.outOfOrder), '0'],
        ['delivered before the outage / while down', `${f.deliveredBeforeDown} / ${f.deliveredWhileDown}`, ''],
        [
          'after the endpoint came back: first delivery',
          f.firstAfterBackMs === undefined ? '-' : `${(f.firstAfterBackMs / 1000).toFixed(1)} s`,
          `≤ ${o.maxRetrySeconds} s (the longest retry interval)`,
        ],
        [
          '  the last of the backlog',
          f.lastAfterBackMs === undefined
            ? '- (all before)'
            : `${(f.lastAfterBackMs / 1000).toFixed(1)} s (${f.deliveredAfterBack} events)`,
          '',
        ],
        ['delivery log: attempts delivered / failed', `${f.attempts.delivered} / ${f.attempts.failed}`, ''],
      ],
    ),
  );
}

function printLatency(f: LatencyFigures, rate: number) {
  console.log(
    `\nlatency: ${f.started} verifications at ${f.achievedRate.toFixed(1)}/s (asked ${rate}), a second endpoint timing out on every attempt`,
  );
  console.log(
    table(
      ['stage change → delivered', 'figure', 'target'],
      [
        [
          "from the event's timestamp (every event)",
          spreadText(f.fromTimestamp),
          `p50 ≤ 200 ms: ${met(f.fromTimestamp.p50 <= 200)}; p99 ≤ 1 s: ${met(f.fromTimestamp.p99 <= 1000)}`,
        ],
        ["  stage → first attempt began (the emitting worker's; sample)", spreadText(f.parts.toAttempt), ''],
        ['  attempt began → arrived (HTTP)', spreadText(f.parts.toArrival), ''],
        ['signals handing events to the dispatchers (either endpoint)', String(f.handedOver), ''],
        ['events not delivered within 2 min', String(f.missing), '0'],
        ['attempts at the endpoint that never answers', String(f.stuckAttempts), ''],
        ['dispatcher runs (continue-as-new + 1)', String(f.dispatcherRuns), ''],
        ['verifications (sample): started → created', spreadText(f.startToCreated), ''],
        ["dispatcher's workflow tasks: scheduled → started", spreadText(f.dispatcherTaskQueued), ''],
        ["  dispatcher's workflow tasks timed out / failed", `${f.taskTrouble.timedOut} / ${f.taskTrouble.failed}`, ''],
        ['a delivery: scheduled → started (events queue)', spreadText(f.cycle.queued), ''],
        ['  started → completed (activity)', spreadText(f.cycle.running), ''],
        ["  completed → dispatcher's next task done", spreadText(f.cycle.turnaround), ''],
        [
          'one endpoint can take (concurrency ÷ median cycle)',
          `${f.ceilingPerSecond.toFixed(1)} events/s`,
          `offered ${f.offeredPerSecond.toFixed(1)} events/s`,
        ],
        ['starts refused', String(f.refusedStarts), '0'],
      ],
    ),
  );
  printMissing(f.missingNotes);
}

function printMissing(notes: string[]) {
  for (const note of notes) console.log(`  not delivered: ${note}`);
}

function printCost(f: CostFigures) {
  console.log('\ncost');
  console.log(
    table(
      ['round', 'events', 'verifications/s', 'seconds'],
      f.rounds.map((r, i) => [String(i + 1), r.events, r.perSecond.toFixed(1), r.seconds.toFixed(1)]),
    ),
  );
  const ratio = f.onPerSecond / f.offPerSecond;
  const perEvent = f.actions / f.delivered;
  const p = f.parts;
  console.log(
    table(
      ['measure', 'figure', 'target'],
      [
        [
          'throughput events on ÷ off',
          `${ratio.toFixed(2)} (${f.onPerSecond.toFixed(1)} ÷ ${f.offPerSecond.toFixed(1)}/s)`,
          `≥ 0.9: ${met(ratio >= 0.9)}`,
        ],
        [
          'billed actions per delivered event',
          `${perEvent.toFixed(2)} (${f.actions} for ${f.delivered})`,
          `≤ 3: ${met(perEvent <= 3)}`,
        ],
        [
          '  of which',
          `emitting ${f.emitters.onActions}; dispatchers: ${p.signals} signals (endpoints, handovers), ${p.attempts} attempts, ${p.runs} runs, ${p.timers} timers, ${p.other} other`,
          '',
        ],
        [
          `emitters' tasks with local activities (${f.emitters.sampled} sampled each)`,
          `with an endpoint ${f.emitters.on}; without ${f.emitters.off}`,
          '',
        ],
      ],
    ),
  );
}

async function run(): Promise<number> {
  const only = onlyArg();
  const rows = numberArg('rows', 1000);
  const downSeconds = numberArg('down-seconds', 600);
  const maxRetrySeconds = numberArg('max-retry-seconds', 5);
  const rate = numberArg('rate', 20);
  const latencySeconds = numberArg('latency-seconds', 60);
  const costCount = numberArg('cost-count', 300);
  const drainTimeoutSeconds = numberArg('drain-timeout', 600);
  // The project's default unless asked otherwise (to see what binds, not to pass).
  const concurrency = numberArg('endpoint-concurrency', DEFAULT_DELIVERY_POLICY.concurrency);
  const stack = await startFaultStack(log, {
    // Far above what the worker can do: the worker, not the service's limit, is what binds.
    maxRps: 10_000,
    events: { policy: { initialIntervalSeconds: 1, maximumIntervalSeconds: maxRetrySeconds, concurrency } },
  });
  try {
    if (only.has('outage')) {
      log(`[outage] ${rows} rows, endpoint down ${downSeconds} s`);
      const f = await outageScenario(stack, { rows, downSeconds, faults: false, drainTimeoutSeconds }, log);
      printOutage(f, { rows, downSeconds, maxRetrySeconds });
    }
    if (only.has('outage-faults')) {
      log(`[outage-faults] ${rows} rows, endpoint down ${downSeconds} s, worker killed twice, Temporal restarted`);
      const f = await outageScenario(stack, { rows, downSeconds, faults: true, drainTimeoutSeconds }, log);
      printOutage(f, { rows, downSeconds, maxRetrySeconds });
    }
    if (only.has('latency')) {
      log(`[latency] ${rate}/s for ${latencySeconds} s`);
      printLatency(
        await latencyScenario(stack, { rate, seconds: latencySeconds, sampleEvery: 10, concurrency }, log),
        rate,
      );
    }
    if (only.has('cost')) {
      log(`[cost] rounds of ${costCount}`);
      printCost(await costScenario(stack, { count: costCount }, log));
    }
    log('done');
    return 0;
  } finally {
    await stack.close();
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
