import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { describeBatch, type BatchView } from '../../src/batches/describe.js';
import { itemView } from '../../src/batches/items.js';
import { itemsQuery } from '../../src/batches/item-state.js';
import { DEFAULT_RETRY_WINDOW_SECONDS } from '../../workflows/shared/activity-options.js';
import type { SubmittedBatch } from '../../src/batches/submit.js';
import { followHints, outcomeTable } from '../../src/batches/batch-view.js';
import { fileSummary, readBatchFile, submitFileBatch, type FileBatch } from '../../src/batches/file-batch.js';
import { plural, table } from '../../src/text-format.js';
import { statusQuery } from '../../workflows/verification/verification.js';
import { ON_THEIR_WAY } from '../../workflows/shared/stages.js';

export interface SettledRow {
  row: number;
  workflowId: string;
  /** Its stage while it runs, its outcome once closed. */
  stage: string;
  pendingRuns: string[];
}

export interface ExampleRun {
  fileBatch: FileBatch;
  submitted: SubmittedBatch;
  view: BatchView;
  settled: SettledRow[];
}

/** Nothing left to happen without a person: no item queued, on its way, or waiting out its (short) grace period. */
function settled({ counts }: BatchView): boolean {
  const waiting = [...ON_THEIR_WAY, 'created' as const];
  return counts.queued + waiting.reduce((n, stage) => n + counts.running[stage], 0) === 0;
}

/** Where each item stands (visibility); the pending runs of those awaiting input (one query each, few of them). */
async function whereEachStands(client: Client, batchId: string): Promise<SettledRow[]> {
  const rows: SettledRow[] = [];
  for await (const info of client.workflow.list({ query: itemsQuery(batchId) })) {
    const item = itemView(info);
    if (!item) continue;
    const stage = item.outcome ?? item.stage ?? 'unknown';
    const pendingRuns =
      stage === 'awaiting-input'
        ? ((
            await client.workflow
              .getHandle(item.workflowId)
              .query(statusQuery)
              .catch(() => undefined)
          )?.pendingRuns ?? [])
        : [];
    rows.push({ row: item.row, workflowId: item.workflowId, stage, pendingRuns });
  }
  return rows.sort((a, b) => a.row - b.row);
}

/** Submits the example intake file as a batch, then follows it (its memo) until its items have settled. */
export async function runExample(
  client: Client,
  file: string,
  options: { taskQueue: string; sandboxUrl: string; graceSeconds: number; settleTimeoutMs?: number },
): Promise<ExampleRun> {
  const fileBatch = await readBatchFile(file, { sandbox: true });
  const submitted = await submitFileBatch(client, fileBatch, {
    taskQueue: options.taskQueue,
    sandboxUrl: options.sandboxUrl,
    options: { retryWindowSeconds: DEFAULT_RETRY_WINDOW_SECONDS, timing: { graceSeconds: options.graceSeconds } },
    // Looked at every half second: the example's items settle in seconds.
    timing: { pollInitialSeconds: 0.5, pollBusyMaxSeconds: 2, pollMaxSeconds: 5 },
  });
  const deadline = Date.now() + (options.settleTimeoutMs ?? 60_000);
  let view = await describeBatch(client, submitted.batchId);
  while (view && !settled(view) && Date.now() < deadline) {
    await sleep(500);
    view = await describeBatch(client, submitted.batchId);
  }
  if (!view) throw new Error(`batch ${submitted.batchId} is not there`);
  return { fileBatch, submitted, view, settled: await whereEachStands(client, submitted.batchId) };
}

export function exampleSummary({ fileBatch, submitted, view, settled }: ExampleRun, intakeUrl?: string): string {
  return [
    fileSummary(fileBatch),
    '',
    submitted.duplicate
      ? `Batch ${submitted.batchId} (this file, submitted by an earlier run): ${view.state}`
      : `Batch ${submitted.batchId}: ${plural(submitted.items, 'item')}, ${view.state}`,
    'Follow it:',
    ...followHints(submitted.batchId, intakeUrl),
    '',
    outcomeTable(view.counts),
    '',
    'Where each verification stands:',
    table(
      ['row', 'workflowId', 'stage', 'pending runs'],
      settled.map((r) => [r.row, r.workflowId, r.stage, r.pendingRuns.join(', ')]),
    ),
  ].join('\n');
}
