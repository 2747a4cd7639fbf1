import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { describeBatch, type BatchView } from '../../src/batches/describe.js';
import { progressGroups } from '../../src/batches/groups.js';
import { batchPageWorkflowId, batchWorkflowId } from '../../workflows/batch/batch.js';
import type { SandboxControl } from '../faults/sandbox-control.js';

/**
 * Event types of a batch's and its pages' histories that Temporal Cloud bills (as testing/billed-actions.ts counts them).
 */
const BILLED = {
  EVENT_TYPE_TIMER_STARTED: 'timers',
  EVENT_TYPE_MARKER_RECORDED: 'local activity markers',
  EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED: 'memo upserts',
  EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED: 'signals sent',
  EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED: 'updates',
  EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW: 'continue-as-new',
} as const;

export interface HistoryFigures {
  runs: number;
  /** Per run: events and bytes. */
  largestRun: { events: number; bytes: number };
  totalEvents: number;
  billed: Record<string, number>;
}

async function historyFigures(client: Client, workflowIds: readonly string[]): Promise<HistoryFigures> {
  const figures: HistoryFigures = { runs: 0, largestRun: { events: 0, bytes: 0 }, totalEvents: 0, billed: {} };
  for (const workflowId of workflowIds) {
    for await (const listed of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
      // Visibility records a history's length when the run closes; a describe gives a running one's.
      const handle = client.workflow.getHandle(workflowId, listed.runId);
      const run = await handle.describe();
      figures.runs += 1;
      figures.totalEvents += run.historyLength;
      figures.largestRun.events = Math.max(figures.largestRun.events, run.historyLength);
      figures.largestRun.bytes = Math.max(figures.largestRun.bytes, run.historySize ?? 0);
      const history = await handle.fetchHistory();
      for (const event of history.events ?? []) {
        const type = proto.temporal.api.enums.v1.EventType[event.eventType ?? 0] as keyof typeof BILLED;
        const name = BILLED[type];
        if (name) figures.billed[name] = (figures.billed[name] ?? 0) + 1;
      }
    }
  }
  return figures;
}

export interface BatchFigures {
  view: BatchView;
  /** The five groups (and cancelled, duplicate) add up to the items. */
  groupsSum: number;
  createdAtService: number;
  /** Caller ids of this batch with two or more verifications at the service. */
  duplicates: number;
  batch: HistoryFigures;
  pages: HistoryFigures;
  /** The largest item workflow history among a sample. */
  item: { events: number; bytes: number };
}

/** Counts, duplicates at the service and history sizes of a batch whose rows' caller ids start with `prefix`. */
export async function measureBatch(
  client: Client,
  sandbox: SandboxControl,
  batchId: string,
  prefix: string,
): Promise<BatchFigures> {
  const view = await describeBatch(client, batchId);
  if (!view) throw new Error(`no batch ${batchId}`);
  const byCaller = await sandbox.verificationsByCallerId();
  let createdAtService = 0;
  let duplicates = 0;
  for (const [callerId, records] of byCaller) {
    if (!callerId.startsWith(prefix)) continue;
    createdAtService += records.length;
    if (records.length > 1) duplicates += 1;
  }
  const pages = Array.from({ length: view.pages }, (_, i) => batchPageWorkflowId(batchId, i + 1));
  const item = { events: 0, bytes: 0 };
  for await (const info of client.workflow.list({
    query: `BatchId = "${batchId}" AND WorkflowType = 'verificationWorkflow'`,
    pageSize: 1000,
  })) {
    item.events = Math.max(item.events, info.historyLength);
    item.bytes = Math.max(item.bytes, info.historySize ?? 0);
  }
  return {
    view,
    groupsSum: Object.values(progressGroups(view.counts)).reduce((a, b) => a + b, 0),
    createdAtService,
    duplicates,
    batch: await historyFigures(client, [batchWorkflowId(batchId)]),
    pages: await historyFigures(client, pages),
    item,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function describeFigures(label: string, f: BatchFigures, wallSeconds: number): string[] {
  const c = f.view.counts;
  const billed = (h: HistoryFigures) =>
    Object.entries(h.billed)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  return [
    `${label}: batch ${f.view.batchId} ${f.view.state} in ${wallSeconds.toFixed(0)} s`,
    `  items ${c.items}: completed ${c.outcomes.completed}, failed ${c.outcomes.failed}, other outcomes ${
      Object.values(c.outcomes).reduce((a, b) => a + b, 0) - c.outcomes.completed - c.outcomes.failed
    }, running ${Object.values(c.running).reduce((a, b) => a + b, 0)}, queued ${c.queued}, duplicate ${c.duplicate}, not started ${c.notStarted}`,
    `  groups add up to ${f.groupsSum} (items ${c.items}); verifications created at the service ${f.createdAtService}; caller ids with duplicates ${f.duplicates}`,
    `  batch workflow: ${f.batch.runs} run(s), ${f.batch.totalEvents} events in all, largest run ${f.batch.largestRun.events} events / ${kb(f.batch.largestRun.bytes)}; ${billed(f.batch)}`,
    `  pages: ${f.pages.runs} run(s), largest ${f.pages.largestRun.events} events / ${kb(f.pages.largestRun.bytes)}; ${billed(f.pages)}`,
    `  largest item history: ${f.item.events} events / ${kb(f.item.bytes)}`,
  ];
}
