/**
 * `npm run bench:workflow-heap [-- --count 200]`: what one cached workflow holds in the worker's JavaScript heap, live
 * (after full garbage collections), for three workflows:
 *   - a wait alone (lab/waiting-workflow.ts): what the SDK itself keeps per workflow;
 *   - the same wait in a bundle holding the project's workflow modules: the modules are preloaded (loaded once and
 *     shared by every workflow of the worker's reused V8 context), so the difference is what each workflow still
 *     holds of them;
 *   - a verification awaiting input: the above plus its own state;
 *   - a patient waiting on the timer of its next check (workflows/patient): the same plus its own state;
 *   - the same two with the modules not preloaded, as before decision 58: each workflow instantiated every module of
 *     the bundle for itself.
 * The worker runs in this process in debug mode (workflows in the main thread, so one heap holds everything), with
 * a cache larger than `count`; RSS is left out on purpose: it is live data plus V8's headroom, see bench:worker-memory.
 * The sandbox runs in this process too: its record of each verification (a few kB) is counted with the last figure.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { EligibilityClient } from '../src/client/index.js';
import { encryptedDataConverter } from '../src/codec/data-converter.js';
import { codecKeys } from '../src/codec/keys.js';
import { loadConfig } from '../src/config.js';
import { SandboxRunList } from '../src/contract/index.js';
import { scheduleAppointment } from '../src/patients/patients.js';
import { startVerification } from '../src/temporal/start-verification.js';
import { verificationWorkflowId } from '../workflows/shared/ids.js';
import { runAwaitingInputSignal, statusQuery } from '../workflows/verification/verification.js';
import { workerSinks } from '../workers/create-worker.js';
import { bundleWorkflows, defaultWorkflowsPath } from '../workers/workflow-bundle.js';
import { forEachLimited, numberArg, startBenchStack, type BenchStack } from './bench-stack.js';

const COUNT = numberArg('count', 200);
const gc = (globalThis as { gc?: () => void }).gc;

const request = (i: number) => ({
  id: `heap-${randomUUID()}-${i}`,
  patient: { firstName: 'Bench', lastName: 'Mark', dateOfBirth: '01/02/1980', state: 'NY', memberId: `M${i}` },
  payerId: '60054',
  placeOfServiceCode: '11',
  specialtyCode: 'ABA',
});

function liveHeapMb(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

interface Case {
  name: string;
  workflowsPath: string;
  /** The bundle's modules loaded once for every workflow (default), or instantiated by each. */
  preloaded?: boolean;
  /** Starts workflow `i` and returns once it waits. */
  start(stack: BenchStack, taskQueue: string, i: number): Promise<void>;
}

async function startWaiting(stack: BenchStack, taskQueue: string, i: number): Promise<void> {
  await stack.client.workflow.start('waitingWorkflow', {
    taskQueue,
    workflowId: `waiting-${randomUUID()}`,
    args: [request(i)],
  });
}

async function awaitingInput(stack: BenchStack, taskQueue: string, i: number): Promise<void> {
  const { workflowId } = await startVerification(stack.client, request(i), { taskQueue });
  const handle = stack.client.workflow.getHandle(workflowId);
  for (;;) {
    const runs = SandboxRunList.parse(await (await fetch(`${stack.sandboxUrl}/sandbox/runs`)).json());
    const run = runs.find((r) => r.id !== undefined && verificationWorkflowId(r.id) === workflowId);
    if (run) {
      await handle.signal(runAwaitingInputSignal, { flowRunId: run.flowRunId });
      break;
    }
    await sleep(100);
  }
  while ((await handle.query(statusQuery)).stage !== 'awaiting-input') await sleep(100);
}

const patientIdKey = randomBytes(32);

/** A patient with one appointment six weeks ahead: it waits on the timer of its first check. */
async function idlePatient(stack: BenchStack, taskQueue: string, i: number): Promise<void> {
  const dateOfService = new Date(Date.now() + 42 * 86_400_000).toISOString().slice(0, 10);
  await scheduleAppointment(
    { client: stack.client, taskQueue, idKey: patientIdKey },
    {
      tenant: 'bench',
      patientRef: `heap-${randomUUID()}`,
      patient: { ...request(i).patient, state: 'NY' },
      payerId: '60054',
      placeOfServiceCode: '11',
      specialtyCode: 'PRC',
      dateOfService,
    },
  );
}

const cases: Case[] = [
  {
    name: 'wait alone (SDK floor)',
    workflowsPath: fileURLToPath(new URL('./waiting-workflow.ts', import.meta.url)),
    start: startWaiting,
  },
  {
    name: 'wait + workflow modules',
    workflowsPath: fileURLToPath(new URL('./waiting-with-modules-workflow.ts', import.meta.url)),
    start: startWaiting,
  },
  { name: 'verification awaiting input', workflowsPath: defaultWorkflowsPath, start: awaitingInput },
  { name: 'patient waiting on its timer', workflowsPath: defaultWorkflowsPath, start: idlePatient },
  {
    name: 'verification, not preloaded',
    workflowsPath: defaultWorkflowsPath,
    start: awaitingInput,
    preloaded: false,
  },
  { name: 'patient, not preloaded', workflowsPath: defaultWorkflowsPath, start: idlePatient, preloaded: false },
];

async function measure(stack: BenchStack, c: Case): Promise<{ kb: number; cached: number }> {
  const taskQueue = `heap-${randomUUID()}`;
  const config = loadConfig('worker', { ...stack.workerEnv });
  const connection = await NativeConnection.connect({ address: stack.server.address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await bundleWorkflows({ workflowsPath: c.workflowsPath, preloaded: c.preloaded ?? true }),
    debugMode: true,
    sinks: workerSinks(),
    activities: createActivities(new EligibilityClient(config.service)),
    dataConverter: encryptedDataConverter(codecKeys(stack.workerEnv.CODEC_KEYS!, 'bench key')),
    maxCachedWorkflows: COUNT + 10,
    maxTaskQueueActivitiesPerSecond: 100_000,
  });
  const running = worker.run();
  try {
    // One first, so what loads once per worker (the bundle, lazily built SDK state) is in the baseline.
    await c.start(stack, taskQueue, 0);
    await sleep(1000);
    const before = { heap: liveHeapMb(), cached: worker.getStatus().numCachedWorkflows };
    await forEachLimited(COUNT, 20, (i) => c.start(stack, taskQueue, i + 1));
    const settled = Date.now() + 15_000;
    while (worker.getStatus().numCachedWorkflows < before.cached + COUNT && Date.now() < settled) await sleep(200);
    await sleep(1000);
    const after = { heap: liveHeapMb(), cached: worker.getStatus().numCachedWorkflows };
    const cached = after.cached - before.cached;
    return { kb: ((after.heap - before.heap) * 1024) / cached, cached };
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
}

async function run() {
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:workflow-heap does)');
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const stack = await startBenchStack();
  try {
    console.log(`Live JavaScript heap per cached workflow (${COUNT} cached, reuseV8Context):`);
    const results: number[] = [];
    for (const c of cases) {
      const { kb, cached } = await measure(stack, c);
      results.push(kb);
      console.log(`  ${c.name.padEnd(30)} ${kb.toFixed(0).padStart(6)} kB  (${cached} cached)`);
    }
    const [floor, modules, verification, patient, verificationEach, patientEach] = results as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    console.log(`  what a workflow holds of the bundle's modules: ${(modules - floor).toFixed(0)} kB per workflow`);
    console.log(`  a verification's own state:                    ${(verification - modules).toFixed(0)} kB`);
    console.log(`  an idle patient's own state:                   ${(patient - modules).toFixed(0)} kB`);
    console.log(
      `  preloaded ÷ not: verification ${(verification / verificationEach).toFixed(2)}, ` +
        `patient ${(patient / patientEach).toFixed(2)}`,
    );
  } finally {
    await stack.stop();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
