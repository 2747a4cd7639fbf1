import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import cliProgress from 'cli-progress';
import { describeBatch, type BatchView } from '../../src/batches/describe.js';
import { progressGroups } from '../../src/batches/groups.js';
import { BATCH_STATE_TABLE } from '../../workflows/batch/batch.js';
import { CliError } from './context.js';
import { groupLine } from '../../src/batches/batch-view.js';

export interface FollowOptions {
  tty: boolean;
  /** How often the batch is described (its memo; free). */
  intervalMs?: number;
  /** Without a terminal, a line at most this often while the counts change. */
  lineEveryMs?: number;
}

/**
 * Follows a batch until nothing is on its way (every item completed, without coverage, failed, or waiting for a
 * person): a bar of outcomes on a terminal, a line now and then otherwise. Reads the batch's memo only, so following
 * costs nothing and works while no worker runs; stopping the follower (Ctrl-C, a killed terminal) changes nothing.
 */
export async function followBatch(client: Client, batchId: string, options: FollowOptions): Promise<BatchView> {
  const first = await describeBatch(client, batchId);
  if (!first) throw new CliError(`no batch ${batchId}`);
  const done = (view: BatchView) => view.counts.items - progressGroups(view.counts)['in progress'];
  const payload = (view: BatchView) => ({ groups: groupLine(view.counts), state: view.state });
  const bar = options.tty
    ? new cliProgress.SingleBar(
        { stream: process.stdout, format: '{bar} {value}/{total} | {groups} | {state}', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(first.counts.items, done(first), payload(first));
  let view = first;
  let printed = '';
  let printedAt = 0;
  const line = () => `${view.batchId}: ${done(view)}/${view.counts.items} (${groupLine(view.counts)}) ${view.state}`;
  try {
    for (;;) {
      bar?.update(done(view), payload(view));
      const settled = BATCH_STATE_TABLE[view.state].settled;
      const due = Date.now() - printedAt >= (options.lineEveryMs ?? 5000);
      if (!bar && line() !== printed && (due || settled)) {
        printed = line();
        printedAt = Date.now();
        console.log(printed);
      }
      if (settled) break;
      await sleep(options.intervalMs ?? 1000);
      view = (await describeBatch(client, batchId)) ?? view;
    }
  } finally {
    bar?.stop();
  }
  return view;
}
