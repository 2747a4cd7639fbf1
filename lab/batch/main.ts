import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { batchExists } from '../../src/batches/submit.js';
import { DEFAULT_RETRY_WINDOW_SECONDS } from '../../workflows/shared/activity-options.js';
import { contentBatchId } from '../../src/batches/prepare.js';
import { readBatchFile } from '../../src/batches/file-batch.js';
import { startCli } from './cli-child.js';
import { doneOf, finished, follow } from './follow.js';
import { describeFigures, measureBatch } from './measure.js';
import { startBatchStack, type BatchStack } from './stack.js';

/**
 * `npm run bench:batch [items] [kill-items]` (0 skips one): a batch of `items` (default 10,000) submitted by the CLI, which is killed
 * twice, once while it stores the pages and once while it follows the batch; then a batch of `kill-items` (default
 * 2,000) during which the worker process is SIGKILLed twice. Each ends with its counts, the verifications the sandbox
 * created per caller id (duplicates), the history sizes of the batch, its pages and its items, and the wall time.
 */

const log = (line: string) => console.log(line);

/** A CSV of `n` valid v2 rows for the sandbox's seed, caller ids `<prefix>-<i>`. */
async function writeRows(dir: string, prefix: string, n: number): Promise<string> {
  const lines = ['id,payerId,firstName,lastName,dateOfBirth,state,memberId,placeOfServiceCode,specialtyCode'];
  for (let i = 0; i < n; i += 1) lines.push(`${prefix}-${i},60054,Avery,Quinn,04/12/1987,WA,M123456,11,PHT`);
  const file = path.join(dir, `${prefix}.csv`);
  await fs.writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

async function cliKilledTwice(stack: BatchStack, items: number): Promise<string[]> {
  const prefix = `big-${randomBytes(3).toString('hex')}`;
  const file = await writeRows(stack.dataDir, prefix, items);
  const { validated } = await readBatchFile(file, { sandbox: false });
  const batchId = contentBatchId(validated.valid, { retryWindowSeconds: DEFAULT_RETRY_WINDOW_SECONDS });
  const args = ['batch', file, '--grace-seconds', '1', '--wait'];
  log(`A: ${items} items from ${path.basename(file)}, batch ${batchId}`);
  const startedAt = Date.now();

  const first = startCli(stack.env, args);
  // A file of more than five pages reports pages stored; a smaller one is submitted before it could be killed.
  await first.waitFor(/stored \d+\/\d+ pages|^Batch \S+:/m);
  await first.kill();
  const stored = /stored (\d+\/\d+) pages/.exec(first.output())?.[1] ?? 'all';
  const existsAfterFirst = await batchExists(stack.client, batchId);
  const startedAfterFirst = (
    await stack.client.workflow.count(`BatchId = "${batchId}" AND WorkflowType = 'verificationWorkflow'`)
  ).count;
  log(
    `  CLI 1 SIGKILLed after it reported ${stored} pages stored: batch exists ${existsAfterFirst}, items started ${startedAfterFirst}`,
  );

  const second = startCli(stack.env, args);
  // "submitted", or "exists already" when the first run got as far as starting the batch.
  await second.waitFor(/^Batch \S+(: \d+ items submitted| exists already)/m);
  const submittedMs = Date.now() - startedAt;
  const atKill = await follow(stack.client, batchId, (v) => doneOf(v) >= items * 0.3, 30 * 60_000, log);
  await second.kill();
  log(
    `  CLI 2 submitted after ${(submittedMs / 1000).toFixed(1)} s, SIGKILLed while following at ${doneOf(atKill)}/${items} settled`,
  );

  const view = await follow(stack.client, batchId, finished, 60 * 60_000, log);
  const wall = (Date.now() - startedAt) / 1000;
  log(`  finished (${view.state}) after ${wall.toFixed(0)} s; measuring`);
  return describeFigures(
    `A (CLI killed twice)`,
    await measureBatch(stack.client, stack.sandbox, batchId, `${prefix}-`),
    wall,
  );
}

async function workerKilledTwice(stack: BatchStack, items: number): Promise<string[]> {
  const prefix = `kill-${randomBytes(3).toString('hex')}`;
  const file = await writeRows(stack.dataDir, prefix, items);
  const { validated } = await readBatchFile(file, { sandbox: false });
  const batchId = contentBatchId(validated.valid, { retryWindowSeconds: DEFAULT_RETRY_WINDOW_SECONDS });
  log(`B: ${items} items from ${path.basename(file)}, batch ${batchId}; every service call takes 100 ms`);
  await stack.sandbox.setFaults({ latencyMs: 100 });
  const startedAt = Date.now();
  try {
    const cli = startCli(stack.env, ['batch', file, '--grace-seconds', '1']);
    await cli.waitFor(/^Batch \S+: \d+ items submitted/m);
    const base = (await stack.sandbox.stats()).verificationsCreated;
    for (const kill of [1, 2]) {
      const target = base + Math.round((kill * items) / 3);
      while ((await stack.sandbox.stats()).verificationsCreated < target) await sleep(200);
      const pid = stack.worker.pid;
      await stack.worker.kill();
      const created = (await stack.sandbox.stats()).verificationsCreated - base;
      log(`  worker pid ${pid} SIGKILLed at ${created}/${items} verifications created`);
      const readyMs = await stack.worker.start();
      log(`  worker restarted (pid ${stack.worker.pid}), polling after ${(readyMs / 1000).toFixed(1)} s`);
    }
  } finally {
    await stack.sandbox.setFaults({ latencyMs: 0 });
  }
  const view = await follow(stack.client, batchId, finished, 30 * 60_000, log);
  const wall = (Date.now() - startedAt) / 1000;
  log(`  finished (${view.state}) after ${wall.toFixed(0)} s; measuring`);
  return describeFigures(
    `B (worker killed twice)`,
    await measureBatch(stack.client, stack.sandbox, batchId, `${prefix}-`),
    wall,
  );
}

async function run() {
  const items = Number(process.argv[2] ?? 10_000);
  const killItems = Number(process.argv[3] ?? 2000);
  const stack = await startBatchStack(log);
  try {
    // 0 skips a scenario.
    const report = [
      ...(items > 0 ? await cliKilledTwice(stack, items) : []),
      ...(killItems > 0 ? await workerKilledTwice(stack, killItems) : []),
    ];
    log('');
    for (const line of report) log(line);
    log(`unexpected worker exits: ${stack.worker.unexpectedExits}`);
  } finally {
    await stack.close();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
