/**
 * `npm run bench:search [-- --count 10000 --searches 300]`: finding a patient through the blind index with `count`
 * verifications in visibility. They are started on a task queue no worker polls, so they sit running with their
 * search attributes, as a busy namespace's would. Prints the p50 / p95 of a patient search (last name + date of
 * birth, or member id, hashed with a two-key ring as after a rotation) beside a plain visibility query of one workflow
 * id (the engine's own floor for one query), and the ratio of the two p95s. Every search must find its one patient.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { blindIndexKeysOf } from '../../src/blind-index/keys.js';
import { findPatient } from '../../src/temporal/find-patient.js';
import { generateKey } from '../../src/codec/keys.js';
import { inLanes } from '../../src/batches/lanes.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { withWorkflowId } from '../../src/temporal/visibility-query.js';
import { table } from '../../src/text-format.js';
import { numberArg, startBenchStack } from '../bench-stack.js';

const TENANTS = ['clinic-a', 'clinic-b', 'clinic-c', 'clinic-d', 'clinic-e'];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

/** `i` in letters only (a last name keeps only its letters when normalised): 0 → a, 26 → ba. */
function letters(i: number): string {
  let text = '';
  do {
    text = String.fromCharCode(97 + (i % 26)) + text;
    i = Math.floor(i / 26);
  } while (i > 0);
  return text;
}

/** The i-th made-up patient: a last name, a date of birth and a member id of its own. */
function patient(i: number) {
  const day = String((i % 28) + 1).padStart(2, '0');
  const month = String((i % 12) + 1).padStart(2, '0');
  return {
    firstName: 'Bench',
    lastName: `Patient${letters(i)}`,
    dateOfBirth: `${month}/${day}/${1940 + (i % 60)}`,
    state: 'WA',
    memberId: `BM-${i}`,
  };
}

async function run() {
  const count = numberArg('count', 10_000);
  const searches = numberArg('searches', 300);
  const stack = await startBenchStack();
  // Two keys: the newest indexes, search hashes with both (as after a rotation), so each search asks for 4 tokens.
  const keys = blindIndexKeysOf(`${generateKey('new')},${generateKey('old')}`);
  const taskQueue = `unpolled-${randomUUID()}`;
  const ids: string[] = [];
  try {
    const began = performance.now();
    await inLanes(
      Array.from({ length: count }, (_, i) => i),
      32,
      async (i) => {
        const { workflowId } = await startVerification(
          stack.client,
          { id: `search-${i}`, patient: patient(i), payerId: '60054', placeOfServiceCode: '11', specialtyCode: 'PRC' },
          { taskQueue, tenant: TENANTS[i % TENANTS.length], blindIndex: keys },
        );
        ids[i] = workflowId;
      },
    );
    console.log(`${count} verifications started in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    // Visibility is eventually consistent: wait until it holds every one.
    const everyOne = `TaskQueue = "${taskQueue}"`;
    for (;;) {
      const { count: visible } = await stack.client.workflow.count(everyOne);
      if (visible >= count) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    const searchMs: number[] = [];
    const idMs: number[] = [];
    let wrong = 0;
    for (let s = 0; s < searches; s++) {
      const i = Math.floor(Math.random() * count);
      const { lastName, dateOfBirth, memberId } = patient(i);
      const byName = s % 2 === 0;
      const t0 = performance.now();
      const matches = await findPatient(stack.client, keys, {
        tenants: [TENANTS[i % TENANTS.length]],
        patient: byName ? { lastName: lastName.toLowerCase(), dateOfBirth } : { memberId },
        limit: 20,
      });
      searchMs.push(performance.now() - t0);
      if (matches.length !== 1 || matches[0]!.workflowId !== ids[i]) wrong += 1;
      // The engine's own floor: one list query naming one workflow id, its first page.
      const t1 = performance.now();
      for await (const info of stack.client.workflow.list({ query: withWorkflowId(ids[i]!), pageSize: 20 })) {
        if (info.workflowId !== ids[i]) wrong += 1;
      }
      idMs.push(performance.now() - t1);
    }
    const rows = [
      ['patient search (blind index)', percentile(searchMs, 0.5).toFixed(1), percentile(searchMs, 0.95).toFixed(1)],
      ['visibility query of one id', percentile(idMs, 0.5).toFixed(1), percentile(idMs, 0.95).toFixed(1)],
    ];
    console.log(`\n${searches} searches among ${count} verifications in visibility (ms):`);
    console.log(table(['', 'p50', 'p95'], rows));
    const ratio = percentile(searchMs, 0.95) / percentile(idMs, 0.95);
    console.log(`search p95 ÷ id query p95: ${ratio.toFixed(2)}; search p95 target ≤ 500 ms`);
    console.log(`searches that did not find exactly their patient: ${wrong}`);
    if (wrong > 0) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
