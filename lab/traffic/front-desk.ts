/**
 * `npm run bench:front-desk [-- --rate 20 --batch 2000 --checkins 12 --interval 5 --port 7600]`
 * `[--prefer-wait [--requests 100 --request-interval 1 --repeat-after 2]]`: the front desk
 * beside a saturating batch (docs/developing/traffic.md). The service's limit is R (the sandbox enforces
 * it) and the worker is told it (`ELIGIBILITY_MAX_RPS = R`). First without a batch, then with a batch of `--batch`
 * rows running: check-ins are submitted through the intake API every `--interval` seconds, and a person's run input
 * (`POST /verifications/:id/runs/:flowRunId/input`, the `supplyRunInput` update, `PUT /v1/runs`) is sent once.
 * Prints each phase's time to `created` (p50 / p95 / max, from submission to the workflow task that records the
 * stage, read from the histories afterwards), the run input's answer and latency, and the service's calls per second
 * and 429s while the batch ran.
 * With `--prefer-wait` (issue 34, the synchronous answer), the check-ins are instead `--requests` front-desk requests
 * with `Prefer: wait=10` for a payer-known patient, one every `--request-interval` seconds while the batch saturates R:
 * each is sent twice at once with the same caller id and a third time `--repeat-after` seconds later. Prints p50 / p95
 * of the time to the 200 answer (first request of each), the answers of the repeats, and the verifications the sandbox
 * created per caller id (double starts), beside the same measured first without a batch.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runAwaitingInputSignal } from '../../workflows/verification/verification.js';
import type { VerificationStatus } from '../../workflows/verification/verification.js';
import { numberArg } from '../bench-stack.js';
import { SandboxControl } from '../faults/sandbox-control.js';
import { checkIns, timesToCreated, type Figures } from './check-ins.js';
import { serviceCalls } from './measure.js';
import { benchRequest, percentile, seconds, startLanesStack, type LanesStack } from './lanes-stack.js';

const log = (line: string) => console.log(line);
const TARGET_P95_MS = 2000;

/** A front-desk verification whose run asks for input, announced to it as the webhook receiver would. */
async function openRun(lanes: LanesStack, id: string): Promise<{ workflowId: string; flowRunId: string }> {
  const started = await lanes.intake('POST', '/verifications', benchRequest(id, 'ABA'));
  const { workflowId } = started.body as { workflowId: string };
  const path = `/verifications/${encodeURIComponent(workflowId)}`;
  for (let i = 0; i < 600; i += 1) {
    const status = (await lanes.intake('GET', path)).body as VerificationStatus;
    const runs = status.verificationId ? await lanes.sandboxRuns(status.verificationId) : [];
    if (runs[0]) {
      await lanes.stack.client.workflow.getHandle(workflowId).signal(runAwaitingInputSignal, runs[0]);
      while (((await lanes.intake('GET', path)).body as VerificationStatus).pendingRuns.length === 0) await sleep(100);
      return { workflowId, flowRunId: runs[0].flowRunId };
    }
    await sleep(100);
  }
  throw new Error(`${workflowId}: no run asked for input within a minute`);
}

async function supplyInput(lanes: LanesStack, run: { workflowId: string; flowRunId: string }) {
  const path = `/verifications/${encodeURIComponent(run.workflowId)}/runs/${encodeURIComponent(run.flowRunId)}/input`;
  return lanes.intake('POST', path, { input: { authorizationNumber: 'A-100' } });
}

const line = (label: string, f: Figures) =>
  `${label}: ${f.createdMs.length} check-ins reached created: p50 ${seconds(percentile(f.createdMs, 50))}, ` +
  `p95 ${seconds(percentile(f.createdMs, 95))}, max ${seconds(Math.max(...f.createdMs))}` +
  (f.notCreated > 0 ? `; ${f.notCreated} NOT created within the wait` : '') +
  `\n  each, in submission order: ${f.createdMs
    .map(
      (ms, i) =>
        `${seconds(ms)} (start answered ${seconds(f.queued[i]!.start)}; queued: workflow tasks ` +
        `${seconds(f.queued[i]!.workflowTasks)} (sticky ${seconds(f.queued[i]!.sticky)}), ` +
        `calls ${seconds(f.queued[i]!.activities)})`,
    )
    .join('; ')}`;

/** Submits a batch of `rows` through the intake API and resolves once it has had 5 s worth of calls at R answered. */
async function saturatingBatch(lanes: LanesStack, rows: number, rate: number) {
  const before = await lanes.sandboxStats();
  const batchStart = Date.now();
  const items = Array.from({ length: rows }, () => benchRequest(undefined));
  const batch = await lanes.intake('POST', '/batches', {
    items,
    tenant: 'bulk-clinic',
    batchId: `bench-${batchStart}`,
  });
  if (batch.status !== 202) throw new Error(`batch: ${batch.status} ${JSON.stringify(batch.body)}`);
  log(`batch of ${rows} submitted in ${seconds(batch.ms)}`);
  while (serviceCalls(await lanes.sandboxStats()) - serviceCalls(before) < rate * 5) await sleep(250);
  const saturatedAt = Date.now();
  log(`saturating after ${seconds(saturatedAt - batchStart)}`);
  return { before, batchStart, saturatedAt, batchId: `bench-${batchStart}` };
}

interface WaitAnswer {
  status: number;
  ms: number;
  workflowId?: string;
}

/**
 * `count` front-desk requests with `Prefer: wait=10`, `intervalMs` apart: each sent twice at once under one caller id,
 * and once more `repeatAfterMs` later. Resolves with every answer, by caller id.
 */
async function preferWaitRequests(
  lanes: LanesStack,
  tag: string,
  count: number,
  intervalMs: number,
  repeatAfterMs: number,
) {
  const send = async (id: string): Promise<WaitAnswer> => {
    const answer = await lanes.intake('POST', '/verifications', benchRequest(id), { prefer: 'wait=10' });
    const body = answer.body as { workflowId?: string } | undefined;
    return { status: answer.status, ms: answer.ms, ...(body?.workflowId ? { workflowId: body.workflowId } : {}) };
  };
  const t0 = Date.now();
  const all: Promise<{ id: string; first: WaitAnswer; twin: WaitAnswer; later: WaitAnswer }>[] = [];
  for (let i = 0; i < count; i += 1) {
    await sleep(Math.max(0, t0 + i * intervalMs - Date.now()));
    const id = `${tag}-${i}`;
    all.push(
      (async () => {
        const [first, twin] = await Promise.all([send(id), send(id)]);
        await sleep(repeatAfterMs);
        return { id, first, twin, later: await send(id) };
      })(),
    );
  }
  return Promise.all(all);
}

type PreferWaitResults = Awaited<ReturnType<typeof preferWaitRequests>>;

function preferWaitLines(label: string, results: PreferWaitResults, created: Map<string, unknown[]>) {
  // The first answer of each pair (the two are sent at once; either may start the verification).
  const firsts = results.map((r) => (r.first.ms <= r.twin.ms ? r.first : r.twin));
  const ok = firsts.filter((a) => a.status === 200).map((a) => a.ms);
  const all = results.flatMap((r) => [r.first, r.twin, r.later]);
  const statuses = (answers: WaitAnswer[]) =>
    Object.entries(answers.reduce<Record<string, number>>((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {}))
      .map(([status, n]) => `${n}× ${status}`)
      .join(', ');
  const workflowIds = results.filter((r) => new Set([r.first, r.twin, r.later].map((a) => a.workflowId)).size > 1);
  const doubles = results.filter((r) => (created.get(r.id)?.length ?? 0) > 1).length;
  const none = results.filter((r) => (created.get(r.id)?.length ?? 0) === 0).length;
  log(
    `${label}: ${results.length} caller ids, each sent 3 times (2 at once, 1 later) with Prefer: wait=10\n` +
      `  time to the 200 answer (first of each pair): p50 ${seconds(percentile(ok, 50))}, p95 ${seconds(percentile(ok, 95))}, ` +
      `max ${seconds(Math.max(...ok))}; ${ok.length} of ${firsts.length} answered 200` +
      `\n  target p95 ≤ 1.5 s: ${percentile(ok, 95) <= 1500 ? 'met' : 'NOT met'}` +
      `\n  answers: first ${statuses(results.map((r) => r.first))}; at once ${statuses(results.map((r) => r.twin))}; ` +
      `later ${statuses(results.map((r) => r.later))}; naming another workflow: ${workflowIds.length}` +
      `\n  verifications created at the sandbox: ${results.length - none - doubles} once, ${doubles} twice or more ` +
      `(double starts; target 0: ${doubles === 0 ? 'met' : 'NOT met'}), ${none} none; ${all.length} requests`,
  );
}

async function runPreferWait(lanes: LanesStack, rate: number, rows: number) {
  const count = numberArg('requests', 100);
  const intervalMs = numberArg('request-interval', 1) * 1000;
  const repeatAfterMs = numberArg('repeat-after', 2) * 1000;
  const sandbox = new SandboxControl(lanes.stack.sandboxUrl);
  log(
    `front desk with Prefer: wait=10: R = ${rate} requests/s (sandbox), ELIGIBILITY_MAX_RPS = ${rate}, batch ${rows} rows`,
  );
  const quiet = await preferWaitRequests(lanes, 'wait-quiet', Math.min(count, 10), intervalMs, repeatAfterMs);
  const { before, batchStart, batchId } = await saturatingBatch(lanes, rows, rate);
  const busy = await preferWaitRequests(lanes, 'wait-busy', count, intervalMs, repeatAfterMs);
  const windowEnd = Date.now();
  const after = await lanes.sandboxStats();
  const stillCreating = await lanes.stack.client.workflow.count(
    `BatchId = '${batchId}' AND VerificationStage IN ('creating', 'validating')`,
  );
  const created = await sandbox.verificationsByCallerId();
  log('');
  preferWaitLines('without a batch', quiet, created);
  preferWaitLines('with the batch running', busy, created);
  log(
    `the batch's service calls: ${((serviceCalls(after) - serviceCalls(before)) / ((windowEnd - batchStart) / 1000)).toFixed(1)}/s ` +
      `(R = ${rate}), 429s ${after.tooManyRequestsSent - before.tooManyRequestsSent}; ${stillCreating.count} batch ` +
      `items still waiting to be created at the end (saturated throughout when > 0)`,
  );
}

async function run() {
  const rate = numberArg('rate', 20);
  const rows = numberArg('batch', 2000);
  const count = numberArg('checkins', 12);
  const intervalMs = numberArg('interval', 5) * 1000;
  const lanes = await startLanesStack({
    rate,
    maxRps: rate,
    intakePort: numberArg('port', 7600),
    // Check-ins close 30 s after creation; the person's verification waits for its input.
    timing: { graceSeconds: 30 },
  });
  try {
    if (process.argv.includes('--prefer-wait')) return await runPreferWait(lanes, rate, rows);
    log(
      `front desk beside a batch: R = ${rate} requests/s (sandbox), ELIGIBILITY_MAX_RPS = ${rate}, batch ${rows} rows`,
    );

    // Without a batch.
    const quietRun = await openRun(lanes, 'person-quiet');
    const quietInput = await supplyInput(lanes, quietRun);
    const quiet = await timesToCreated(lanes, await checkIns(lanes, 'quiet', Math.min(count, 6), intervalMs), 60_000);

    // With a batch saturating the limit.
    const busyRun = await openRun(lanes, 'person-busy');
    const { before, batchStart, saturatedAt, batchId } = await saturatingBatch(lanes, rows, rate);
    log(`check-ins every ${intervalMs / 1000} s`);
    let busyInput: Promise<Awaited<ReturnType<typeof supplyInput>>> | undefined;
    const submitted = await checkIns(lanes, 'busy', count, intervalMs, (i) => {
      if (i === Math.floor(count / 2)) busyInput = supplyInput(lanes, busyRun);
    });
    const input = await busyInput!;
    const windowEnd = Date.now();
    const after = await lanes.sandboxStats();
    const windowS = (windowEnd - saturatedAt) / 1000;
    const stillCreating = await lanes.stack.client.workflow.count(
      `BatchId = '${batchId}' AND VerificationStage IN ('creating', 'validating')`,
    );
    const busy = await timesToCreated(lanes, submitted, 120_000);

    log('');
    log(line('without a batch', quiet));
    log(line(`with the batch running`, busy));
    log(
      `  target p95 ≤ ${seconds(TARGET_P95_MS)}: ${percentile(busy.createdMs, 95) <= TARGET_P95_MS ? 'met' : 'NOT met'}`,
    );
    log(`person's run input without a batch: ${quietInput.status} in ${seconds(quietInput.ms)}`);
    log(`person's run input with the batch running: ${input.status} in ${seconds(input.ms)}`);
    log(`  target 200 within 2 s: ${input.status === 200 && input.ms <= 2000 ? 'met' : 'NOT met'}`);
    const calls = serviceCalls(after) - serviceCalls(before);
    log(
      `while the batch ran (${windowS.toFixed(0)} s from saturation to the last check-in): service calls ` +
        `${(calls / ((windowEnd - batchStart) / 1000)).toFixed(1)}/s since the batch started (R = ${rate}), ` +
        `429s ${after.tooManyRequestsSent - before.tooManyRequestsSent}; ` +
        `${stillCreating.count} batch items still waiting to be created at the end (the batch saturated throughout)`,
    );
  } finally {
    await lanes.stop();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
