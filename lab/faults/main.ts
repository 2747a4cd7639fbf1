/**
 * `npm run faults`: issue 11's fault suite. Against a real Temporal dev server (restartable, state in a SQLite file),
 * the sandbox, the worker as a child process and the intake API, it runs in order: dropped creation responses on v1
 * and v2, a batch with the worker SIGKILLed three times, a Temporal restart during a batch, and ≥ 10,000 generated
 * intake requests. It prints what the service created per caller id, what was lost, what was accepted that should
 * not have been, and exits 1 when any of that is not zero. See README "Fault suite".
 */
import { parseArgs } from 'node:util';
import type { ScenarioFigures } from './figures.js';
import { acceptanceLines, failures, finalTable } from './report.js';
import { droppedResponses } from './scenarios/dropped-responses.js';
import { fuzzIntake } from './scenarios/fuzz.js';
import { temporalRestart } from './scenarios/temporal-restart.js';
import { workerKills } from './scenarios/worker-kills.js';
import { startFaultStack } from './stack.js';

const suiteStart = Date.now();
const log = (line: string) =>
  console.log(`[${String(Math.round((Date.now() - suiteStart) / 1000)).padStart(4)} s] ${line}`);

const SCENARIOS = ['dropped', 'kills', 'restart', 'fuzz'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

function options() {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '11' },
      'fuzz-count': { type: 'string', default: '10000' },
      only: { type: 'string', default: SCENARIOS.join(',') },
    },
  });
  const seed = Number(values.seed);
  const count = Number(values['fuzz-count']);
  if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 13) {
    throw new Error('--seed must be an integer and --fuzz-count an integer of at least 13 (one request of each kind)');
  }
  const only = values.only.split(',').map((name) => name.trim());
  const unknown = only.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--only takes ${SCENARIOS.join(', ')}; not: ${unknown.join(', ')}`);
  return { fuzz: { seed, count }, only: new Set(only as ScenarioName[]) };
}

async function run(): Promise<number> {
  const { fuzz, only } = options();
  log('starting: Temporal dev server, sandbox, intake API, worker process');
  const stack = await startFaultStack(log);
  try {
    let droppedV1: Awaited<ReturnType<typeof droppedResponses>> | undefined;
    let droppedV2: Awaited<ReturnType<typeof droppedResponses>> | undefined;
    if (only.has('dropped')) {
      log('[1/4] v1: 20 rows, 5 creation responses dropped');
      droppedV1 = await droppedResponses(stack, 'v1', log);
      log('[1/4] v2: 20 rows, 5 creation responses dropped');
      droppedV2 = await droppedResponses(stack, 'v2', log);
    }
    let kills: ScenarioFigures | undefined;
    if (only.has('kills')) {
      log('[2/4] 400-row batch (v1 and v2 alternating), worker SIGKILLed 3 times');
      kills = await workerKills(stack, log);
    }
    let restart: ScenarioFigures | undefined;
    if (only.has('restart')) {
      log('[3/4] Temporal restart during a batch, an intake caller sending throughout');
      restart = await temporalRestart(stack, log);
    }
    await stack.worker.stop();
    let fuzzed: ScenarioFigures | undefined;
    if (only.has('fuzz')) {
      log(`[4/4] ${fuzz.count} generated intake requests (seed ${fuzz.seed}), no worker polling their queue`);
      fuzzed = await fuzzIntake(stack, fuzz, log);
    }

    const all = [droppedV1?.figures, droppedV2?.figures, kills, restart, fuzzed].filter((f) => f !== undefined);
    console.log('\nResults (created = verifications at the service; fuzz: workflows started)');
    console.log(finalTable(all));
    if (droppedV1 && droppedV2 && kills && restart && fuzzed) {
      console.log('\nAcceptance (issue 11)');
      const v1 = { ...droppedV1.figures, dropped: droppedV1.dropped };
      for (const line of acceptanceLines({
        droppedV1: v1,
        droppedV2: droppedV2.figures,
        kills,
        restart,
        fuzz: fuzzed,
      })) {
        console.log(line);
      }
    }
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
