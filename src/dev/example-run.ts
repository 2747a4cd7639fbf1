import type { Client } from '@temporalio/client';
import { readBatch, runBatch, type BatchReport } from '../batch/run-batch.js';
import { batchSummary } from '../batch/summary.js';
import { table } from '../text-format.js';
import { statusQuery } from '../../workflows/messages.js';
import { OUTCOMES, type Stage } from '../../workflows/types.js';

/** Stages after which nothing happens without a person: where the example's summary can be read. */
const SETTLED: readonly Stage[] = [...OUTCOMES, 'awaiting-input', 'needs-review'];

export interface SettledRow {
  row: number;
  workflowId: string;
  stage: Stage | 'unknown';
  verificationId?: string;
  pendingRuns: string[];
}

export interface ExampleRun {
  report: BatchReport;
  settled: SettledRow[];
}

async function stageOf(client: Client, workflowId: string) {
  try {
    return await client.workflow.getHandle(workflowId).query(statusQuery);
  } catch {
    return undefined; // not yet picked up by the worker, or a query that timed out: asked again next round
  }
}

/** Waits until every started verification has settled (or `timeoutMs` passes) and reports where each stands. */
async function settle(client: Client, report: BatchReport, timeoutMs: number): Promise<SettledRow[]> {
  const started = report.outcomes.flatMap((o) =>
    o.status === 'failed' ? [] : [{ row: o.row, workflowId: o.workflowId }],
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await Promise.all(
      started.map(async ({ row, workflowId }): Promise<SettledRow> => {
        const status = await stageOf(client, workflowId);
        return {
          row,
          workflowId,
          stage: status?.stage ?? 'unknown',
          ...(status?.verificationId ? { verificationId: status.verificationId } : {}),
          pendingRuns: status?.pendingRuns ?? [],
        };
      }),
    );
    const done = rows.every((r) => r.stage !== 'unknown' && SETTLED.includes(r.stage));
    if (done || Date.now() > deadline) return rows.sort((a, b) => a.row - b.row);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Runs the example intake file through the batch path, then waits for its verifications to settle. */
export async function runExample(
  client: Client,
  file: string,
  options: { taskQueue: string; sandboxUrl: string; graceSeconds: number; settleTimeoutMs?: number },
): Promise<ExampleRun> {
  const validated = await readBatch(file, { sandbox: true });
  const report = await runBatch(client, file, validated, {
    taskQueue: options.taskQueue,
    concurrency: 8,
    sandboxUrl: options.sandboxUrl,
    timing: { graceSeconds: options.graceSeconds },
    tty: false,
  });
  const settled = await settle(client, report, options.settleTimeoutMs ?? 60_000);
  return { report, settled };
}

export function exampleSummary({ report, settled }: ExampleRun): string {
  return [
    batchSummary(report),
    '',
    'Where each verification stands:',
    table(
      ['row', 'workflowId', 'stage', 'pending runs'],
      settled.map((r) => [r.row, r.workflowId, r.stage, r.pendingRuns.join(', ')]),
    ),
  ].join('\n');
}
