/**
 * `npm run faults`: issue 11's fault suite. Against a real Temporal dev server (restartable, state in a SQLite file),
 * the sandbox, the worker as a child process and the intake API, it runs in order: dropped creation responses on v1
 * and v2, a batch with the worker SIGKILLed three times, a Temporal restart during a batch, and ≥ 10,000 generated
 * intake requests. It prints what the service created per caller id, what was lost, what was accepted that should
 * not have been, and exits 1 when any of that is not zero. See README "Fault suite".
 */
import { parseArgs } from 'node:util';
import { acceptanceLines, failures, finalTable } from './report.js';
import { droppedResponses } from './scenarios/dropped-responses.js';
import { fuzzIntake } from './scenarios/fuzz.js';
import { temporalRestart } from './scenarios/temporal-restart.js';
import { workerKills } from './scenarios/worker-kills.js';
import { startFaultStack } from './stack.js';

const suiteStart = Date.now();
const log = (line: string) =>
  console.log(`[${String(Math.round((Date.now() - suiteStart) / 1000)).padStart(4)} s] ${line}`);

function options() {
  const { values } = parseArgs({
    options: { seed: { type: 'string', default: '11' }, 'fuzz-count': { type: 'string', default: '10000' } },
  });
  const seed = Number(values.seed);
  const count = Number(values['fuzz-count']);
  if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 13) {
    throw new Error('--seed must be an integer and --fuzz-count an integer of at least 13 (one request of each kind)');
  }
  return { seed, count };
}

async function run(): Promise<number> {
  const fuzz = options();
  log('starting: Temporal dev server, sandbox, intake API, worker process');
  const stack = await startFaultStack(log);
  try {
    log('[1/4] v1: 20 rows, 5 creation responses dropped');
    const droppedV1 = await droppedResponses(stack, 'v1', log);
    log('[1/4] v2: 20 rows, 5 creation responses dropped');
    const droppedV2 = await droppedResponses(stack, 'v2', log);
    log('[2/4] 400-row batch (v1 and v2 alternating), worker SIGKILLed 3 times');
    const kills = await workerKills(stack, log);
    log('[3/4] Temporal restart during a batch, an intake caller sending throughout');
    const restart = await temporalRestart(stack, log);
    await stack.worker.stop();
    log(`[4/4] ${fuzz.count} generated intake requests (seed ${fuzz.seed}), no worker polling their queue`);
    const fuzzed = await fuzzIntake(stack, fuzz, log);

    const all = [droppedV1.figures, droppedV2.figures, kills, restart, fuzzed];
    console.log('\nResults (created = verifications at the service; fuzz: workflows started)');
    console.log(finalTable(all));
    console.log('\nAcceptance (issue 11)');
    const input = { droppedV1: { ...droppedV1.figures, dropped: droppedV1.dropped }, droppedV2: droppedV2.figures };
    for (const line of acceptanceLines({ ...input, kills, restart, fuzz: fuzzed })) console.log(line);
    const reasons = failures(all);
    console.log(reasons.length === 0 ? '\nPASS' : `\nFAIL\n${reasons.map((r) => `  ${r}`).join('\n')}`);
    log(`done in ${Math.round((Date.now() - suiteStart) / 1000)} s`);
    return reasons.length === 0 ? 0 : 1;
  } finally {
    await stack.close();
  }
}

run().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
