/**
 * `npm run bench:events [-- --only outage,outage-faults,latency,cost] [--rows 1000] [--down-seconds 600]
 * [--rate 20] [--latency-seconds 60] [--cost-count 300] [--drain-timeout 600] [--endpoint-concurrency 16]`: issue 34's
 * acceptance of outbound events, against real parts (lab/faults/stack.ts with events: a restartable Temporal dev
 * server, the sandbox, `eligibility worker` as a child process delivering from the outbox, the intake API with event
 * endpoints, a throwaway PostgreSQL) and real HTTP receivers that verify every delivery with `standardwebhooks`.
 * The worker retries as configured (10 s doubling to 2 h); a delivery that succeeds makes the endpoint's waiting
 * retries due at once. The code before a change beside this checkout's: `bench:events-before-after`.
 * Prints each figure beside its target; exits 0 when the bench ran (a missed target is a figure, not a failure), 2 when
 * it could not run.
 */
import { numberArg } from '../bench-stack.js';
import { startFaultStack } from '../faults/stack.js';
import { table } from '../../src/text-format.js';
import { DEFAULT_DELIVERY_POLICY } from '../../src/events/delivery/index.js';
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

function printOutage(f: OutageFigures, o: { rows: number; downSeconds: number }) {
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
          'the retry then due (10 s doubling, 2 h at most)',
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

function latencyRows(f: LatencyFigures): string[][] {
  const byStatus = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ') || 'none';
  return [
    [
      "from the event's timestamp (every event)",
      spreadText(f.fromTimestamp),
      `p50 ≤ 200 ms: ${met(f.fromTimestamp.p50 <= 200)}; p99 ≤ 1 s: ${met(f.fromTimestamp.p99 <= 1000)}`,
    ],
    ['  stage → first attempt began (the delivery log; sample)', spreadText(f.parts.toAttempt), ''],
    ['  attempt began → arrived (HTTP)', spreadText(f.parts.toArrival), ''],
    ['events not delivered 2 min after the last verification closed', String(f.missing), '0'],
    ['delivery log: attempts at the live endpoint', byStatus(f.outbox.live), ''],
    ['  at the endpoint that never answers', `${byStatus(f.outbox.dead)} (${f.stuckAttempts} reached it)`, ''],
    ['rows left in event_outbox: live / never answers', `${f.outbox.leftLive} / ${f.outbox.leftDead}`, ''],
    ['verifications (sample): started → created', spreadText(f.startToCreated), ''],
    ['verifications: started → closed', spreadText(f.completion.startToClose), ''],
    ['starts refused; verifications failed', `${f.refusedStarts}; ${f.completion.failed}`, '0; 0'],
  ];
}

function printLatency(f: LatencyFigures, rate: number) {
  console.log(
    `\nlatency: ${f.started} verifications at ${f.achievedRate.toFixed(1)}/s (asked ${rate}), a second endpoint timing out on every attempt`,
  );
  console.log(table(['stage change → delivered', 'figure', 'target'], latencyRows(f)));
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
          'delivery log: attempts; rows left in event_outbox',
          `${f.attempts} for ${f.delivered} delivered; ${f.leftInOutbox} left`,
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
  const rate = numberArg('rate', 20);
  const latencySeconds = numberArg('latency-seconds', 60);
  const costCount = numberArg('cost-count', 300);
  const drainTimeoutSeconds = numberArg('drain-timeout', 600);
  // The project's default unless asked otherwise (to see what binds, not to pass).
  const concurrency = numberArg('endpoint-concurrency', DEFAULT_DELIVERY_POLICY.concurrency);
  const stack = await startFaultStack(log, {
    // Far above what the worker can do: the worker, not the service's limit, is what binds.
    maxRps: 10_000,
    events: { endpointConcurrency: concurrency },
  });
  try {
    if (only.has('outage')) {
      log(`[outage] ${rows} rows, endpoint down ${downSeconds} s`);
      const f = await outageScenario(stack, { rows, downSeconds, faults: false, drainTimeoutSeconds }, log);
      printOutage(f, { rows, downSeconds });
    }
    if (only.has('outage-faults')) {
      log(`[outage-faults] ${rows} rows, endpoint down ${downSeconds} s, worker killed twice, Temporal restarted`);
      const f = await outageScenario(stack, { rows, downSeconds, faults: true, drainTimeoutSeconds }, log);
      printOutage(f, { rows, downSeconds });
    }
    if (only.has('latency')) {
      log(`[latency] ${rate}/s for ${latencySeconds} s`);
      const target = {
        client: stack.client,
        intake: stack.intake,
        endpoints: stack,
        db: stack.store!.db,
        workerOutput: () => stack.worker.output(),
      };
      printLatency(await latencyScenario(target, { rate, seconds: latencySeconds, sampleEvery: 10 }, log), rate);
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
