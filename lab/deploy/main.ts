/**
 * `npm run bench:deploy`: a rolling deploy of a workflow change, as docs/operating/deploying-changes.md tells it.
 * Verifications in flight on version A (awaiting input, awaiting a discovery, items of a batch); version B's
 * verification issues a command A never does; B ramps to 10 %, then becomes current; A's workflows are let go and
 * finish; then a rollback makes A current again. It prints where each workflow ran and finished, the non-determinism
 * errors, the stuck, lost and duplicated verifications, and how long A's workers were needed after B became current.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../../src/config.js';
import { pinnedBuildId, setCurrentVersion, setRampingVersion } from '../../src/temporal/deployments.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { and, ofType, pinnedTo, withStatus } from '../../src/temporal/visibility-query.js';
import { submitBatch } from '../../src/batches/submit.js';
import { validateSubmission } from '../../src/batches/prepare.js';
import { buildIdOf } from '../../workers/deployment-version.js';
import { promoteWhenPolling } from '../../workers/promote-version.js';
import { runWorker } from '../../workers/run-worker.js';
import { bundleWorkflows } from '../../workers/workflow-bundle.js';
import {
  runAwaitingInputSignal,
  statusQuery,
  supplyRunInputUpdate,
} from '../../workflows/verification/verification.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { forEachLimited, numberArg, startBenchStack } from '../bench-stack.js';
import { Closers } from '../closers.js';
import { sandboxControl } from './sandbox-control.js';

const DEPLOYMENT = 'bench-deploy';
const QUICK = { pollInitialSeconds: 0.5, pollMaxSeconds: 1, graceSeconds: 0.3 };
type Handle = WorkflowHandle<typeof verificationWorkflow>;

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function intake(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    payerId: '60054',
    placeOfServiceCode: '11',
    specialtyCode: 'PRC',
    patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1980', state: 'NY' },
    ...fields,
  };
}

async function run() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const inputCount = numberArg('awaiting-input', 200);
  const discoveryCount = numberArg('awaiting-discovery', 150);
  const batchCount = numberArg('batch', 150);
  const waveCount = numberArg('wave', 100);
  const closers = new Closers((err) => console.error(err));
  try {
    const stack = await startBenchStack();
    closers.add(() => stack.stop());
    const { client, taskQueue } = stack;
    const sandbox = sandboxControl(stack.sandboxUrl);

    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-deploy-'));
    closers.add(() => fs.rm(dir, { recursive: true, force: true }));
    const bundleFile = async (name: string, workflowsPath?: string) => {
      const file = path.join(dir, `${name}.js`);
      await fs.writeFile(file, (await bundleWorkflows(workflowsPath ? { workflowsPath } : {})).code);
      return file;
    };
    const fileA = await bundleFile('a');
    const fileB = await bundleFile('b', fileURLToPath(new URL('./version-b-workflows.ts', import.meta.url)));
    const [a, b] = await Promise.all([buildIdOf({ codePath: fileA }), buildIdOf({ codePath: fileB })]);

    const startWorker = async (bundle: string, buildId: string) => {
      const config = loadConfig('worker', {
        ...process.env,
        ...stack.workerEnv,
        WORKER_DEPLOYMENT_NAME: DEPLOYMENT,
        WORKER_WORKFLOW_BUNDLE: bundle,
        ELIGIBILITY_GOVERNOR: 'false',
      });
      const stop = new AbortController();
      const running = runWorker(config, { signal: stop.signal, log: () => undefined });
      closers.add(async () => {
        stop.abort();
        await running;
      });
      // Registered once it polls; the first version becomes current by itself (WORKER_VERSION_ROLLOUT=first).
      await promoteWhenPolling(
        client,
        { name: DEPLOYMENT, buildId },
        { log: () => undefined, onlyIfNoneCurrent: true },
      );
    };

    // Version A, current, with work in flight.
    await startWorker(fileA, a);
    console.log(`version A ${a} current; starting ${inputCount + discoveryCount + batchCount} verifications on it`);
    const onA: { kind: string; handle: Handle }[] = [];
    const start = async (id: string, fields: Record<string, unknown>, timing: Record<string, number>) => {
      const { workflowId } = await startVerification(client, intake(id, fields), { taskQueue, timing });
      return client.workflow.getHandle<typeof verificationWorkflow>(workflowId);
    };
    await forEachLimited(inputCount, 20, async (i) => {
      onA.push({ kind: 'input', handle: await start(`input-${i}`, { specialtyCode: 'ABA' }, { graceSeconds: 60 }) });
    });
    const discoveries = await Promise.all(
      Array.from({ length: Math.ceil(discoveryCount / 10) }, () => sandbox.pendingDiscovery()),
    );
    await forEachLimited(discoveryCount, 20, async (i) => {
      const discoveryId = discoveries[i % discoveries.length]!.discoveryId;
      const fields = { payerId: undefined, discoveryId };
      onA.push({ kind: 'discovery', handle: await start(`discovery-${i}`, fields, { ...QUICK, pollMaxSeconds: 2 }) });
    });
    const rows = Array.from({ length: batchCount }, (_, i) => ({ row: i + 1, request: intake(`batch-${i}`) }));
    const { valid, invalid } = validateSubmission(rows, { sandbox: false });
    const batch = await submitBatch(
      client,
      { batchId: 'bench-deploy', valid, invalid, options: { retryWindowSeconds: 3600, timing: { graceSeconds: 90 } } },
      { taskQueue },
    );

    // Runs awaiting input are announced to their verification, as the webhook receiver does.
    await forEachLimited(inputCount, 20, async (i) => {
      const { handle } = onA.filter((w) => w.kind === 'input')[i]!;
      const verificationId = await until(
        'a verification id',
        async () => (await handle.query(statusQuery)).verificationId,
      );
      const [run] = await until('a pending run', async () => {
        const runs = await sandbox.runs(verificationId);
        return runs.length > 0 ? runs : undefined;
      });
      await handle.signal(runAwaitingInputSignal, { flowRunId: run!.flowRunId });
    });
    const count = async (query: string) => (await client.workflow.count(query)).count;
    const runningOn = (buildId: string) =>
      count(and(ofType(WorkflowType.verification), withStatus('Running'), pinnedTo(DEPLOYMENT, buildId)));
    const inFlight = inputCount + discoveryCount + batchCount;
    await until('the verifications on A in flight', async () => ((await runningOn(a)) >= inFlight ? true : undefined));
    console.log(`  ${inFlight} running on A (batch ${batch.batchId}: ${batchCount} items)`);

    // Version B: ramped to 10 %, then current.
    await startWorker(fileB, b);
    await setRampingVersion(client, DEPLOYMENT, b, 10, 'bench');
    const wave = async (name: string) => {
      const handles: Handle[] = [];
      await forEachLimited(waveCount, 20, async (i) => {
        handles.push(await start(`${name}-${i}`, {}, QUICK));
      });
      await Promise.all(handles.map((h) => h.result()));
      const builds = await Promise.all(handles.map(pinnedBuildId));
      return { handles, onA: builds.filter((x) => x === a).length, onB: builds.filter((x) => x === b).length };
    };
    const ramped = await wave('ramp');
    console.log(
      `version B ${b} ramping at 10 %: ${ramped.onB} of ${waveCount} new verifications on B, ${ramped.onA} on A`,
    );
    await setCurrentVersion(client, DEPLOYMENT, b, 'bench');
    const promotedAt = performance.now();
    const promoted = await wave('promoted');
    console.log(`version B current: ${promoted.onB} of ${waveCount} new verifications on B, ${promoted.onA} on A`);

    // A's workflows are let go: runs answered, discoveries completed; the batch's items wait out their grace.
    await forEachLimited(inputCount, 20, async (i) => {
      const { handle } = onA.filter((w) => w.kind === 'input')[i]!;
      const [pending] = (await handle.query(statusQuery)).pendingRuns;
      if (pending)
        await handle.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId: pending, input: { note: 'ok' } }] });
    });
    for (const { discoveryId } of discoveries) await sandbox.completeDiscovery(discoveryId);
    await until('A to drain', async () => ((await runningOn(a)) === 0 ? true : undefined), 600_000);
    console.log(`A drained ${elapsed(promotedAt)} after B became current (its batch items' grace is 90 s)`);

    // Rollback.
    await setCurrentVersion(client, DEPLOYMENT, a, 'bench');
    const rolledBack = await wave('rollback');
    console.log(`rolled back to A: ${rolledBack.onA} of ${waveCount} new verifications on A, ${rolledBack.onB} on B`);

    // Figures.
    const everyone = [...onA.map((w) => w.handle), ...ramped.handles, ...promoted.handles, ...rolledBack.handles];
    const batchItems: Handle[] = [];
    for await (const info of client.workflow.list({ query: `BatchId = "${batch.batchId}"` })) {
      if (info.type === WorkflowType.verification) batchItems.push(client.workflow.getHandle(info.workflowId));
    }
    const aStarted = [...onA.map((w) => w.handle), ...batchItems];
    let finishedOnA = 0;
    let completed = 0;
    let nondeterminism = 0;
    const all = [...everyone, ...batchItems];
    await forEachLimited(all.length, 20, async (i) => {
      const handle = all[i]!;
      const description = await handle.describe();
      if (description.status.name === 'COMPLETED' && (await handle.result()).outcome === 'completed') completed++;
      if (aStarted.includes(handle) && (await pinnedBuildId(handle)) === a) finishedOnA++;
      const history = await handle.fetchHistory();
      nondeterminism += (history.events ?? []).filter((e) =>
        /nondetermin/i.test(e.workflowTaskFailedEventAttributes?.failure?.message ?? ''),
      ).length;
    });
    const stuck = await count(and(ofType(WorkflowType.verification), withStatus('Running')));
    const created = await sandbox.verifications();
    const perCaller = new Map<string, number>();
    for (const v of created)
      perCaller.set(v.id ?? v.verificationId, (perCaller.get(v.id ?? v.verificationId) ?? 0) + 1);
    const duplicated = [...perCaller.values()].filter((n) => n > 1).length;
    console.log();
    console.log(`A's pinned workflows that finished on A:   ${finishedOnA} of ${aStarted.length}`);
    console.log(
      `new verifications on B (ramp 10 %, 100 %):  ${ramped.onB} of ${waveCount}, ${promoted.onB} of ${waveCount}`,
    );
    console.log(`new verifications on A after the rollback:  ${rolledBack.onA} of ${waveCount}`);
    console.log(`non-determinism errors:                     ${nondeterminism}`);
    console.log(`stuck (still running):                      ${stuck}`);
    console.log(`completed:                                  ${completed} of ${all.length}`);
    console.log(`lost (not created at the service):          ${all.length - perCaller.size}`);
    console.log(`duplicated (created twice):                 ${duplicated}`);
  } finally {
    await closers.close();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
