/**
 * `npm run topology:setup`: the acceptance of `eligibility setup` on a real cluster. Brings up the production topology
 * on a fresh PostgreSQL (no namespace, no search attribute: the topology's only setup is `eligibility setup` from the
 * compiled build), runs `eligibility setup` a second time (it must have nothing to do), then submits a batch with
 * `eligibility batch --wait` and checks that its items settle. Prints each step's time. Run it alone
 * (`flock /tmp/bench.lock npm run topology:setup`): it starts PostgreSQL, four Temporal services and six processes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { runCli } from './app-processes.js';
import { startTopology } from './topology.js';

const startedAt = Date.now();
const seconds = () => ((Date.now() - startedAt) / 1000).toFixed(1);
const log = (line: string) => console.log(`[${seconds().padStart(6)} s] ${line}`);

/** Three requests the sandbox's seed answers (payer 60054), as `eligibility batch` reads a JSON Lines file. */
const ROWS = ['Ada Lovelace 12/10/1985', 'Alan Turing 06/23/1954', 'Grace Hopper 12/09/1976'].map((row, i) => {
  const [firstName, lastName, dateOfBirth] = row.split(' ');
  return {
    id: `setup-check-${Date.now()}-${i + 1}`,
    payerId: '60054',
    patient: { firstName, lastName, dateOfBirth, state: 'NY', memberId: `M10000${i + 1}` },
    placeOfServiceCode: '11',
    specialtyCode: 'PRC',
  };
});

async function run(): Promise<void> {
  const lines: string[] = [];
  const topology = await startTopology({
    maxRps: 20,
    log: (line) => {
      lines.push(line);
      log(line);
    },
  });
  try {
    const first = lines.find((line) => line.startsWith('eligibility setup:')) ?? '';
    assert.match(first, /namespace default: created/, 'the fresh cluster had no namespace: setup created it');
    assert.match(first, /search attributes added: /, 'and registered the search attributes');

    const again = await runCli(topology.env, ['setup']);
    log(`eligibility setup, again: ${again.trim().split('\n')[0]}`);
    assert.match(again, /namespace default: nothing to do/);

    const file = path.join(topology.runDir, 'setup-check.jsonl');
    await fs.writeFile(file, ROWS.map((row) => JSON.stringify(row)).join('\n'));
    const submitted = Date.now();
    const batch = await runCli(topology.env, ['batch', file, '--batch-id', `setup-check-${Date.now()}`, '--wait']);
    log(`eligibility batch --wait (${((Date.now() - submitted) / 1000).toFixed(1)} s):\n${batch.trim()}`);
    assert.match(batch, /^Batch \S+: 3 items submitted/m, 'the batch started');
    assert.match(batch, /^items\s+3\s/m, 'and its 3 items settled (the outcome table after --wait)');
    log('PASS: setup on a fresh PostgreSQL-backed cluster, nothing to do the second time, then a batch ran');
  } finally {
    await topology.close();
  }
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
