import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { describeBatch, type BatchView } from '../../src/batches/describe.js';
import { progressGroups } from '../../src/batches/groups.js';

/** Items no longer in progress. */
export const doneOf = (view: BatchView) => view.counts.items - progressGroups(view.counts)['in progress'];

export const finished = (v: BatchView) => ['finished', 'closed'].includes(v.state);

/** Describes the batch until `until` holds, logging its progress every 10 s (Temporal may be briefly unreachable). */
export async function follow(
  client: Client,
  batchId: string,
  until: (v: BatchView) => boolean,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<BatchView> {
  const deadline = Date.now() + timeoutMs;
  let lastLog = 0;
  for (;;) {
    const view = await describeBatch(client, batchId).catch(() => undefined);
    if (view && until(view)) return view;
    if (Date.now() > deadline) throw new Error(`batch ${batchId} not there within ${timeoutMs} ms`);
    if (view && Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`    ${view.state}: ${doneOf(view)}/${view.counts.items} settled`);
    }
    await sleep(1000);
  }
}
