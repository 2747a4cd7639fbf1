/**
 * `npm run bench:traffic [-- --only known-10,halved-40] [--count 1000] [--env NAME=value] [--no-peer]`: traffic governance measured side by side in
 * one run, the project (real `eligibility worker` processes, the governor) beside a naive peer (a direct script) and,
 * at a known R, the engine alone (a verification's shape with no-op activities: lab/traffic/engine-ceiling.ts), on
 * the sandbox with its rate limit R set per scenario and moved mid-run. Prints one table of figures at the end.
 * Scenarios run one after the other (`--list` names them); a run of all of them takes a long while at R = 5.
 * `--trace-governor` prints the governor's rate each time it moves during the project's runs; `--trace-calls` prints
 * the service's calls and creations each second of them, and when the last start returned; `--no-peer` leaves out the
 * naive peer and the engine behind the limit (the project's figures only).
 */
import { table } from '../../src/text-format.js';
import { numberArg } from '../bench-stack.js';
import type { Figure } from './scenario.js';
import { scenarios } from './scenarios.js';
import { startTrafficStack } from './stack.js';

function selected() {
  const at = process.argv.indexOf('--only');
  if (at < 0) return scenarios;
  const names = (process.argv[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; --list names them`);
  return scenarios.filter((s) => names.includes(s.name));
}

async function run() {
  if (process.argv.includes('--list')) {
    for (const s of scenarios) console.log(`${s.name.padEnd(16)} ${s.description}`);
    return;
  }
  const chosen = selected();
  const count = numberArg('count', 1000);
  const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  const stack = await startTrafficStack();
  const figures: Figure[] = [];
  try {
    for (const scenario of chosen) {
      log(`${scenario.name}: ${scenario.description}`);
      const found = await scenario.run(stack, { count, log });
      figures.push(...found);
      console.log(
        table(
          ['subject', 'figure', 'value', 'target'],
          found.map((f) => [f.subject, f.name, f.value, f.target]),
        ),
      );
    }
  } finally {
    await stack.stop();
  }
  console.log(`\nTraffic governance, ${count} verifications per run:`);
  console.log(
    table(
      ['scenario', 'subject', 'figure', 'value', 'target'],
      figures.map((f) => [f.scenario, f.subject, f.name, f.value, f.target]),
    ),
  );
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
