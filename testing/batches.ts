import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { describeBatch, type BatchView } from '../src/batches/describe.js';
import { itemsQuery, outcomesCondition } from '../src/batches/item-state.js';
import { validateSubmission, type SubmittedRow } from '../src/batches/prepare.js';
import { submitBatch, type SubmittedBatch } from '../src/batches/submit.js';
import type { BatchAbout, BatchTiming } from '../workflows/batch/batch.js';
import { FAST } from './fixtures.js';
import { eventually } from './workflow-harness.js';

/** A batch's pace in tests: looks every 0.2 s, closes 2 s after its last item. */
export const FAST_BATCH: Partial<BatchTiming> = {
  pollInitialSeconds: 0.2,
  pollBusyMaxSeconds: 1,
  pollMaxSeconds: 1,
  keepOpenSeconds: 2,
  cancelSweepSeconds: 0.3,
};

export const batchIdFor = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** Validates `requests` as rows 1.. and submits them as one batch of `pageSize`-row pages. */
export async function submitRequests(
  client: Client,
  taskQueue: string,
  batchId: string,
  requests: readonly unknown[],
  options: {
    pageSize?: number;
    timing?: Partial<BatchTiming>;
    itemTiming?: typeof FAST;
    tenant?: string;
    about?: BatchAbout;
  } = {},
): Promise<SubmittedBatch> {
  const rows: SubmittedRow[] = requests.map((request, i) => ({ row: i + 1, request }));
  const { valid, invalid } = validateSubmission(rows, { sandbox: false });
  return submitBatch(
    client,
    {
      batchId,
      valid,
      invalid,
      options: {
        retryWindowSeconds: 3600,
        timing: options.itemTiming ?? FAST,
        ...(options.tenant ? { tenant: options.tenant } : {}),
      },
      ...(options.about ? { about: options.about } : {}),
    },
    { taskQueue, timing: options.timing ?? FAST_BATCH, pageSize: options.pageSize ?? 200 },
  );
}

/** Describes the batch until `done` holds for it (default: every item has closed). */
export async function waitForBatch(
  client: Client,
  batchId: string,
  done: (view: BatchView) => boolean = (v) => ['finished', 'closed', 'cancelled'].includes(v.state),
  timeoutMs = 30_000,
): Promise<BatchView> {
  return eventually(
    async () => {
      const view = await describeBatch(client, batchId);
      return view && done(view) ? view : undefined;
    },
    timeoutMs,
    `batch ${batchId}`,
  );
}

/** Why the batch's failed items failed (each one's failure type and message, never a patient value), for a message. */
export async function failedItemReasons(client: Client, batchId: string): Promise<string> {
  const reasons: string[] = [];
  for await (const item of client.workflow.list({ query: itemsQuery(batchId, outcomesCondition(['failed'])) })) {
    const reason = await client.workflow
      .getHandle(item.workflowId, item.runId)
      .result()
      .then(
        () => 'closed without a failure',
        (err: { cause?: { type?: string; message?: string } }) => `${err.cause?.type}: ${err.cause?.message}`,
      );
    reasons.push(`${item.workflowId}: ${reason}`);
  }
  return reasons.join('; ');
}
