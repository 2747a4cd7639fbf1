/**
 * `npm run bench:tenants [-- --big 2000 --small 200 --rate 20 --weight-small 1 --no-tenants --port 7601]`: two
 * clinics' batches submitted together through the intake API (docs/developing/traffic.md). The service's limit is R
 * (the sandbox enforces it, the worker is told it). Prints when each batch's items have all been created, and each
 * tenant's share of the creations while both ran, beside its weighted share (`ELIGIBILITY_TENANT_WEIGHTS`; the big
 * clinic weighs 1). `--no-tenants` submits the same batches without a tenant: one FIFO, the behaviour before fairness.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { numberArg } from '../bench-stack.js';
import { batchItemCounts, benchRequest, seconds, startLanesStack } from './lanes-stack.js';

const log = (line: string) => console.log(line);
const SAMPLE_MS = 2000;
const TOLERANCE = 0.1;

interface Clinic {
  tenant: string;
  rows: number;
  batchId: string;
  weight: number;
}

async function run() {
  const rate = numberArg('rate', 20);
  const withTenants = !process.argv.includes('--no-tenants');
  const weightSmall = numberArg('weight-small', 1);
  const stamp = Date.now();
  const big: Clinic = { tenant: 'clinic-big', rows: numberArg('big', 2000), batchId: `big-${stamp}`, weight: 1 };
  const small: Clinic = {
    tenant: 'clinic-small',
    rows: numberArg('small', 200),
    batchId: `small-${stamp}`,
    weight: weightSmall,
  };
  const maxWaitMs = numberArg('max-wait', 420) * 1000;
  const lanes = await startLanesStack({
    rate,
    maxRps: rate,
    intakePort: numberArg('port', 7601),
    // The items close a second after creation: nothing waits on them.
    timing: { graceSeconds: 1 },
    ...(weightSmall !== 1 ? { tenantWeights: JSON.stringify({ [small.tenant]: weightSmall }) } : {}),
  });
  try {
    log(
      `two clinics: ${big.rows} and ${small.rows} rows submitted together, R = ${rate} requests/s, ` +
        (withTenants ? `tenants as fairness keys, weights big 1 : small ${weightSmall}` : 'NO tenants (one FIFO)'),
    );
    const submit = (clinic: Clinic) =>
      lanes.intake('POST', '/batches', {
        items: Array.from({ length: clinic.rows }, () => benchRequest(undefined)),
        batchId: clinic.batchId,
        ...(withTenants ? { tenant: clinic.tenant } : {}),
      });
    const t0 = Date.now();
    // The big clinic's refresh is sent first, so without fairness it would be ahead in the queue.
    const answers = await Promise.all([submit(big), sleep(50).then(() => submit(small))]);
    for (const answer of answers) {
      if (answer.status !== 202) throw new Error(`batch: ${answer.status} ${JSON.stringify(answer.body)}`);
    }

    const samples: { atMs: number; big: number; small: number; waiting: number; waitingSmall: number }[] = [];
    const doneAt: Partial<Record<'big' | 'small', number>> = {};
    while (Date.now() - t0 < maxWaitMs && (doneAt.big === undefined || doneAt.small === undefined)) {
      await sleep(SAMPLE_MS);
      const [b, m] = [await batchItemCounts(lanes, big.batchId), await batchItemCounts(lanes, small.batchId)];
      const sample = {
        atMs: Date.now() - t0,
        big: b.created,
        small: m.created,
        waiting: b.started - b.created,
        waitingSmall: m.started - m.created,
      };
      samples.push(sample);
      if (sample.big >= big.rows) doneAt.big ??= sample.atMs;
      if (sample.small >= small.rows) doneAt.small ??= sample.atMs;
      if (samples.length % 10 === 0) {
        log(
          `  ${seconds(sample.atMs)}: created big ${sample.big}/${big.rows} (${sample.waiting} started, waiting), ` +
            `small ${sample.small}/${small.rows} (${sample.waitingSmall} waiting)`,
        );
      }
    }

    log('');
    const finished = (name: 'big' | 'small', clinic: Clinic) => {
      const at = doneAt[name];
      const last = samples.at(-1)!;
      return at !== undefined
        ? `${clinic.tenant} (${clinic.rows} rows) all created after ${seconds(at)}`
        : `${clinic.tenant} (${clinic.rows} rows) NOT finished within ${seconds(maxWaitMs)}: ${last[name]} created`;
    };
    log(finished('small', small));
    log(finished('big', big));
    const first =
      doneAt.small !== undefined && (doneAt.big === undefined || doneAt.small < doneAt.big) ? small.tenant : big.tenant;
    log(`finished first: ${first}`);

    // Both running: from the first sample where both have progressed to the last sample before either finished.
    const bothRan = samples.filter((s) => s.big < big.rows && s.small < small.rows && (s.big > 0 || s.small > 0));
    const end = samples.find((s) => s.big >= big.rows || s.small >= small.rows) ?? samples.at(-1)!;
    const start = bothRan[0];
    if (start && end.atMs > start.atMs) {
      const dBig = end.big - start.big;
      const dSmall = end.small - start.small;
      const shareSmall = dSmall / (dBig + dSmall);
      const expected = withTenants ? small.weight / (small.weight + big.weight) : Number.NaN;
      log(
        `while both ran (${seconds(start.atMs)} to ${seconds(end.atMs)}): ${dBig + dSmall} created, ` +
          `${((dBig + dSmall) / ((end.atMs - start.atMs) / 1000)).toFixed(1)}/s; ` +
          `share ${small.tenant} ${(shareSmall * 100).toFixed(1)}%, ${big.tenant} ${((1 - shareSmall) * 100).toFixed(1)}%`,
      );
      if (withTenants) {
        // "± 10%" read both ways: ten percentage points, and ten per cent of the expected share.
        const off = Math.abs(shareSmall - expected);
        const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
        log(
          `  weighted share of ${small.tenant}: ${(expected * 100).toFixed(1)}%; within ± 10 points: ` +
            `${verdict(off <= TOLERANCE)}, within ± 10% of it: ${verdict(off <= TOLERANCE * expected)}`,
        );
      }
    } else log('the two batches never ran side by side in a sample');
    const stats = await lanes.sandboxStats();
    log(`429s sent by the service over the run: ${stats.tooManyRequestsSent}`);
  } finally {
    await lanes.stop();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
