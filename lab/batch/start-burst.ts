/**
 * `cd lab && npm run batch-burst [-- --rows 10000 --max-rps 500 --front-desk 2 --before 4327c9c]`: the worker's
 * workflow tasks and the front desk while a large batch's pages start their items, for the worker built from an
 * earlier commit (`--before`) and for this checkout as it is now, one after the other in one run (docs: lab/README.md).
 *
 * Each build gets a stack of its own (an in-memory dev server, the sandbox, its worker as `eligibility worker`); the
 * intake API is the earlier build's in both, so that only the worker differs. On each: 20 front-desk requests with
 * `Prefer: wait=10` alone, then a batch of `--rows` rows submitted through the intake API while front-desk requests
 * arrive `--front-desk` a second, until every page of the batch has started its items. Reported: the worker's workflow
 * tasks over that window (its `temporal_workflow_task_execution_latency` histogram: p50, p99, how many ran over 1 s;
 * from histories, the tasks over 1 s and the longest of the batch, its pages, a sample of its items and of the front
 * desk's verifications; the SDK's TMPRL1104 warnings) and the front desk's answer times.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { batchItemWorkflowId, batchPageWorkflowId, batchWorkflowId } from '../../workflows/batch/batch.js';
import { verificationWorkflowId } from '../../workflows/shared/ids.js';
import { freePort } from '../../src/free-port.js';
import { numberArg, startBenchStack, WORKER_READY, type BenchStack } from '../bench-stack.js';
import { callIntake } from '../faults/intake-http.js';
import { describeInterval, readWorkerMetrics } from '../worker-metrics.js';
import { answerLine, frontDesk, request, type Answer } from './front-desk.js';
import { buildAtCommit, buildWorkingTree, removeBuild, type Build } from './builds.js';
import { answers, startRole, type RoleProcess } from './roles.js';
import {
  bound,
  historyTasks,
  readTaskBuckets,
  taskFigures,
  type HistoryTasks,
  type TaskFigures,
} from './task-latency.js';

const log = (line: string) => console.log(line);
const INTAKE_KEY = 'batch-burst-intake-key-0123456789abcdef';
const PAGE_ROWS = 200;
const WINDOW_LIMIT_MS = 30 * 60_000;
/** The batch's items whose histories are read for their tasks' durations. */
const ITEM_SAMPLE = 200;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** A worker to measure: its build, what the report calls it, and a slug for ids. */
interface Subject {
  build: Build;
  label: string;
  slug: string;
}

interface PhaseFigures {
  label: string;
  submitMs: number;
  windowMs: number;
  itemsStarted: number;
  tasks: TaskFigures;
  /** From the histories: the batch, its pages, a sample of its items, the front desk's verifications. */
  byKind: Record<string, HistoryTasks>;
  warnings: number;
  worker: string;
  quiet: Answer[];
  busy: Answer[];
}

async function countOf(stack: BenchStack, query: string): Promise<number> {
  return (await stack.client.workflow.count(query)).count;
}

async function phase(
  { build, label, slug }: Subject,
  yardstick: Build,
  rows: number,
  maxRps: number,
  perSecond: number,
) {
  log(`\n${label}: starting its stack (load average ${loadAverage()})`);
  const stack = await startBenchStack();
  const roles: RoleProcess[] = [];
  try {
    const httpPort = Number(stack.workerEnv.WORKER_HTTP_PORT);
    const env: Record<string, string> = {
      ...stack.workerEnv,
      ELIGIBILITY_MAX_RPS: String(maxRps),
      WORKER_SHUTDOWN_GRACE_SECONDS: '0',
    };
    const worker = await startRole(build.bin, 'worker', env, (out) => out.includes(WORKER_READY));
    roles.push(worker);
    const intakePort = await freePort();
    const intake = { url: `http://127.0.0.1:${intakePort}`, apiKey: INTAKE_KEY };
    const { WORKER_HTTP_PORT: _own, ...intakeEnv } = env;
    const intakeVars = { INTAKE_API_KEY: INTAKE_KEY, INTAKE_HOST: '127.0.0.1', INTAKE_PORT: String(intakePort) };
    roles.push(
      await startRole(yardstick.bin, 'intake', { ...intakeEnv, ...intakeVars }, answers(`${intake.url}/healthz`)),
    );

    const quiet = await frontDesk(intake, `${slug}-quiet`, perSecond, 20).done();
    const [buckets0, metrics0] = [await readTaskBuckets(httpPort), await readWorkerMetrics(httpPort)];
    const batchId = `burst-${slug}-${Date.now()}`;
    const pages = Math.ceil(rows / PAGE_ROWS);
    const t0 = Date.now();
    const desk = frontDesk(intake, `${slug}-busy`, perSecond);
    const items = Array.from({ length: rows }, () => request());
    const submitted = await callIntake(intake, 'POST', '/batches', { items, tenant: 'bulk-clinic', batchId });
    if (submitted.status !== 202) throw new Error(`batch: ${submitted.status} ${JSON.stringify(submitted.body)}`);
    const submitMs = Date.now() - t0;
    log(`  batch of ${rows} rows (${pages} pages) submitted in ${s(submitMs)}; front desk ${perSecond}/s`);
    const pagesDone = `WorkflowType = 'batchPageWorkflow' AND BatchId = '${batchId}' AND ExecutionStatus = 'Completed'`;
    while ((await countOf(stack, pagesDone)) < pages && Date.now() - t0 < WINDOW_LIMIT_MS) await sleep(1000);
    const windowMs = Date.now() - t0;
    const busy = await desk.stop();
    const [buckets1, metrics1] = [await readTaskBuckets(httpPort), await readWorkerMetrics(httpPort)];
    const itemsStarted = await countOf(stack, `WorkflowType = 'verificationWorkflow' AND BatchId = '${batchId}'`);
    log(`  every page started its items after ${s(windowMs)}: ${itemsStarted} items`);
    // Rows spread over the batch: its first items have run longest.
    const step = Math.max(1, Math.floor(rows / ITEM_SAMPLE));
    const itemIds = Array.from({ length: Math.ceil(rows / step) }, (_, i) =>
      batchItemWorkflowId(batchId, 1 + i * step, undefined, 0),
    );
    const deskIds = busy.map((_, i) => verificationWorkflowId(`${slug}-busy-${i}`));
    const pageIds = Array.from({ length: pages }, (_, i) => batchPageWorkflowId(batchId, i + 1));
    const byKind = {
      batch: await historyTasks(stack.client, [batchWorkflowId(batchId)]),
      pages: await historyTasks(stack.client, pageIds),
      [`items (every ${step}th row)`]: await historyTasks(stack.client, itemIds),
      ['front-desk verifications']: await historyTasks(stack.client, deskIds),
    };
    return {
      label,
      submitMs,
      windowMs,
      itemsStarted,
      tasks: taskFigures(buckets0, buckets1),
      byKind,
      warnings: worker.output().split('TMPRL1104').length - 1,
      worker: describeInterval(metrics0, metrics1, windowMs / 1000),
      quiet,
      busy,
    } satisfies PhaseFigures;
  } finally {
    for (const role of roles.reverse()) await role.stop();
    await stack.stop();
  }
}

function report(phases: PhaseFigures[], rows: number, maxRps: number, perSecond: number, loads: string[]) {
  log(`\n${rows} rows, ELIGIBILITY_MAX_RPS ${maxRps} (the sandbox's limit does not bind), front desk ${perSecond}/s`);
  for (const p of phases) {
    const { tasks } = p;
    log(`\n${p.label}:`);
    log(
      `  pages started every item ${s(p.windowMs)} after submission (submitted in ${s(p.submitMs)}; ${p.itemsStarted} items)`,
    );
    log(
      `  workflow tasks meanwhile: ${tasks.tasks}; p50 ${bound(tasks.p50)}, p99 ${bound(tasks.p99)}; ` +
        `${tasks.overOneSecond} over 1 s; TMPRL1104 warnings (over 5 s): ${p.warnings}`,
    );
    for (const [kind, h] of Object.entries(p.byKind)) {
      const longest = h.longest.id ? `, longest ${s(h.longest.ms)} (${h.longest.id})` : '';
      log(`  ${kind}: ${h.workflows} histories, ${h.tasks} tasks, ${h.overOneSecond} over 1 s${longest}`);
    }
    log(`  worker: ${p.worker}`);
    log(`  front desk alone: ${answerLine(p.quiet)}`);
    log(`  front desk while the pages start: ${answerLine(p.busy)}`);
  }
  log(`\nload average (1, 5, 15 min): at the start ${loads[0]}; at the end ${loads[1]}`);
}

async function run() {
  const rows = numberArg('rows', 10_000);
  const maxRps = numberArg('max-rps', 500);
  const perSecond = numberArg('front-desk', 2);
  const at = process.argv.indexOf('--before');
  const commit = at >= 0 ? process.argv[at + 1]! : '4327c9c';
  const loads = [loadAverage()];
  log(`building ${commit} and the working tree (load average ${loads[0]})`);
  const before = await buildAtCommit(commit);
  const after = await buildWorkingTree();
  try {
    const phases = [
      await phase({ build: before, label: `before (${commit})`, slug: 'before' }, before, rows, maxRps, perSecond),
      await phase({ build: after, label: 'after (this checkout)', slug: 'after' }, before, rows, maxRps, perSecond),
    ];
    loads.push(loadAverage());
    report(phases, rows, maxRps, perSecond, loads);
  } finally {
    await removeBuild(before);
    await removeBuild(after);
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
