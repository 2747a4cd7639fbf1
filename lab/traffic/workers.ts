/**
 * `npm run bench:workers [-- --workers 3 --rate 40 --known --big 1600 --small 400 --checkins 20 --interval 3
 * --port 7602]`: the traffic rules across worker processes (issue 37, item 5), side by side in one run: one worker, then
 * `--workers` worker processes polling the one task queue, each phase on a fresh stack (a governor that has never seen
 * the service). In each: two clinics' batches submitted together (fairness, weights 1 : 1) and front-desk check-ins
 * every `--interval` seconds from 10 s in (the interactive lane), at the service's limit R (unknown to the workers
 * unless `--known`). Prints per worker its calls, its share of them, its 429s and the governed rate its `/metrics`
 * reported; per phase the calls per second ÷ R, the 429 share, each clinic's share while both ran and the check-ins'
 * time to `created`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { table } from '../../src/text-format.js';
import { numberArg } from '../bench-stack.js';
import { readWorkerMetrics, type MetricsSample } from '../worker-metrics.js';
import { checkIns, timesToCreated } from './check-ins.js';
import { serviceCalls } from './measure.js';
import { batchItemCounts, benchRequest, percentile, seconds, startLanesStack } from './lanes-stack.js';

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const SAMPLE_MS = 2000;
const REQUESTS = 'eligibility_service_requests_total';
const REFUSED = 'eligibility_service_rate_limited_total';
const RATE = 'eligibility_governed_rate_per_second';

interface Clinic {
  tenant: string;
  rows: number;
  batchId: string;
}

interface WorkerFigures {
  calls: number;
  refused: number;
  /** The governed rate its `/metrics` reported at each sample once calls had begun. */
  rates: number[];
}

interface PhaseFigures {
  workers: WorkerFigures[];
  calls: number;
  refused: number;
  seconds: number;
  /** The small clinic's share of the creations while both clinics had items waiting. */
  smallShare: number;
  createdMs: number[];
  notCreated: number;
}

async function phase(workerCount: number, port: number): Promise<PhaseFigures> {
  const rate = numberArg('rate', 40);
  const known = process.argv.includes('--known');
  const stamp = Date.now();
  const big: Clinic = { tenant: 'clinic-big', rows: numberArg('big', 1600), batchId: `big-${stamp}` };
  const small: Clinic = { tenant: 'clinic-small', rows: numberArg('small', 400), batchId: `small-${stamp}` };
  const lanes = await startLanesStack({
    rate,
    maxRps: known ? rate : undefined,
    workers: workerCount,
    intakePort: port,
    // Batch items close a second after creation; check-ins too: nothing waits on them.
    timing: { graceSeconds: 1 },
  });
  try {
    log(`${workerCount} worker(s): ${big.rows} + ${small.rows} rows, R = ${rate} (${known ? 'told' : 'unknown'})`);
    const metrics = async () => Promise.all(lanes.workers.map((w) => readWorkerMetrics(w.httpPort)));
    const first = await metrics();
    const statsBefore = await lanes.sandboxStats();
    const t0 = Date.now();
    const submit = (clinic: Clinic) =>
      lanes.intake('POST', '/batches', {
        items: Array.from({ length: clinic.rows }, () => benchRequest(undefined)),
        batchId: clinic.batchId,
        tenant: clinic.tenant,
      });
    const answers = await Promise.all([submit(big), sleep(50).then(() => submit(small))]);
    for (const a of answers) if (a.status !== 202) throw new Error(`batch: ${a.status} ${JSON.stringify(a.body)}`);

    const desk = sleep(10_000).then(async () =>
      checkIns(lanes, `desk-${workerCount}`, numberArg('checkins', 20), numberArg('interval', 3) * 1000),
    );
    const rates: number[][] = lanes.workers.map(() => []);
    const samples: { big: number; small: number }[] = [];
    let last: MetricsSample[] = first;
    const deadline = t0 + numberArg('max-wait', 600) * 1000;
    for (;;) {
      await sleep(SAMPLE_MS);
      last = await metrics();
      last.forEach((m, i) => {
        const r = m.get(RATE);
        if ((m.get(REQUESTS) ?? 0) > (first[i]!.get(REQUESTS) ?? 0) && r !== undefined) rates[i]!.push(r);
      });
      const [b, s] = [await batchItemCounts(lanes, big.batchId), await batchItemCounts(lanes, small.batchId)];
      samples.push({ big: b.created, small: s.created });
      if (samples.length % 10 === 0) log(`  ${seconds(Date.now() - t0)}: created ${b.created} + ${s.created}`);
      if ((b.created >= big.rows && s.created >= small.rows) || Date.now() > deadline) break;
    }
    const elapsed = (Date.now() - t0) / 1000;
    const statsAfter = await lanes.sandboxStats();
    const desked = await timesToCreated(lanes, await desk, 120_000);
    // While both had items waiting: from the first sample with a creation to the last before either finished.
    const both = samples.filter((s) => s.big < big.rows && s.small < small.rows);
    const from = both.find((s) => s.big + s.small > 0);
    const to = samples.find((s) => s.big >= big.rows || s.small >= small.rows) ?? samples.at(-1)!;
    const dSmall = to.small - (from?.small ?? 0);
    const dBig = to.big - (from?.big ?? 0);
    return {
      workers: lanes.workers.map((_, i) => ({
        calls: (last[i]!.get(REQUESTS) ?? 0) - (first[i]!.get(REQUESTS) ?? 0),
        refused: (last[i]!.get(REFUSED) ?? 0) - (first[i]!.get(REFUSED) ?? 0),
        rates: rates[i]!,
      })),
      calls: serviceCalls(statsAfter) - serviceCalls(statsBefore),
      refused: statsAfter.tooManyRequestsSent - statsBefore.tooManyRequestsSent,
      seconds: elapsed,
      smallShare: dSmall / Math.max(1, dSmall + dBig),
      createdMs: desked.createdMs,
      notCreated: desked.notCreated,
    };
  } finally {
    await lanes.stop();
  }
}

async function run() {
  const rate = numberArg('rate', 40);
  const many = numberArg('workers', 3);
  const port = numberArg('port', 7602);
  const phases = [
    { count: 1, figures: await phase(1, port) },
    { count: many, figures: await phase(many, port) },
  ];
  const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;
  console.log(
    '\nEach worker (calls it made, its share, its 429s, the governed rate its /metrics reported: median, max):',
  );
  console.log(
    table(
      ['phase', 'worker', 'calls', 'share', '429s', 'governed rate seen'],
      phases.flatMap(({ count, figures }) =>
        figures.workers.map((w, i) => [
          `${count} worker(s)`,
          String(i + 1),
          String(w.calls),
          pct(
            w.calls,
            figures.workers.reduce((sum, x) => sum + x.calls, 0),
          ),
          String(w.refused),
          w.rates.length > 0 ? `${percentile(w.rates, 50).toFixed(1)}/s, ${Math.max(...w.rates).toFixed(1)}/s` : '-',
        ]),
      ),
    ),
  );
  console.log(`\nSide by side, R = ${rate} calls/s:`);
  console.log(
    table(
      ['figure', ...phases.map((p) => `${p.count} worker(s)`), 'target'],
      [
        [
          'service calls/s ÷ R, submission to the last created',
          ...phases.map((p) => (p.figures.calls / p.figures.seconds / rate).toFixed(2)),
          'the same across workers',
        ],
        ['429 share', ...phases.map((p) => pct(p.figures.refused, p.figures.calls)), '≤ 1%'],
        [
          'small clinic share while both ran (weight 1 : 1)',
          ...phases.map((p) => pct(p.figures.smallShare, 1)),
          '50% ± 10 points',
        ],
        [
          'check-ins to created p50 / p95',
          ...phases.map(
            (p) =>
              `${seconds(percentile(p.figures.createdMs, 50))} / ${seconds(percentile(p.figures.createdMs, 95))}` +
              (p.figures.notCreated > 0 ? ` (${p.figures.notCreated} not created)` : ''),
          ),
          'p95 ≤ 2 s',
        ],
        ['batches: all created after', ...phases.map((p) => seconds(p.figures.seconds * 1000)), ''],
      ],
    ),
  );
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
