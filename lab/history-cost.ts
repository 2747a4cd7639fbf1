/**
 * `npm run bench:history`: how many history events and billed Temporal Cloud actions a verification costs on the
 * happy path, when woken by a webhook signal, and when it polls for an hour with the default intervals. The hour is
 * run at 1/400 of real time: every interval is scaled alike, so the number of polls is the same as in real time.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { EligibilityClient } from '../src/client/index.js';
import { createDataConverter } from '../src/codec/data-converter.js';
import { generateKey } from '../src/codec/keys.js';
import { loadConfig } from '../src/config.js';
import { findTemporalCli } from '../apps/dev/temporal-cli.js';
import { startDevServer } from '../apps/dev/temporal-dev-server.js';
import { startVerification } from '../src/temporal/start-verification.js';
import { loadSandboxConfig } from '../sandbox/config.js';
import { createSandbox } from '../sandbox/server.js';
import { DEFAULT_TIMING, type Timing } from '../workflows/shared/timing.js';
import { discoveryWorkflowId } from '../workflows/shared/ids.js';
import { createWorker } from '../workers/create-worker.js';
import { bundleWorkflows } from '../workers/workflow-bundle.js';
import { billedActions } from '../testing/billed-actions.js';
import { discoveryUpdatedSignal, discoveryWaitersQuery } from '../workflows/discovery/discovery.js';

const SCALE = 1 / 400;
const scaled = (t: Timing): Timing =>
  Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v * SCALE])) as unknown as Timing;

async function measure(name: string, handle: WorkflowHandle, extra = '') {
  await handle.result();
  const events = (await handle.fetchHistory()).events ?? [];
  const timers = events.filter((e) => e.timerStartedEventAttributes).length;
  const activities = events.filter((e) => e.activityTaskScheduledEventAttributes).length;
  console.log(
    `${name.padEnd(34)} ${String(events.length).padStart(6)} events ${String(billedActions(events)).padStart(5)} actions` +
      `  (${activities} activities, ${timers} timers${extra})`,
  );
}

async function run() {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const config = loadConfig('dev');
  const cliPath = await findTemporalCli(config.temporal);
  const server = await startDevServer({ cliPath });
  const sandbox = await createSandbox({ ...loadSandboxConfig(), port: 0, ratePerSecond: 10_000, rateBurst: 10_000 });
  const sandboxUrl = (await sandbox.listen()).replace(/\/$/, '');
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  // Encrypted like production (the codec changes payload sizes, not event counts), with a key made for this run.
  const dataConverter = await createDataConverter({ ...config.codec, keys: generateKey('bench'), disabled: false });
  const client = new Client({ connection, dataConverter });
  const taskQueue = `bench-${randomUUID()}`;
  const service = new EligibilityClient(loadConfig('worker', { ELIGIBILITY_BASE_URL: sandboxUrl }).service);
  const worker = await createWorker({
    connection: nativeConnection,
    namespace: 'default',
    taskQueue,
    activities: createActivities(service),
    dataConverter,
    maxActivitiesPerSecond: 1000,
    workflowBundle: await bundleWorkflows(),
  });
  const running = worker.run();
  const timing = { ...scaled(DEFAULT_TIMING), graceSeconds: 0.01 };
  const patient = { firstName: 'Bench', lastName: 'Mark', dateOfBirth: '01/02/1980', state: 'NY' };
  const base = { placeOfServiceCode: '11', specialtyCode: 'PRC' };
  const discovery = async (delayMs: number) => {
    const res = await fetch(`${sandboxUrl}/sandbox/discoveries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...patient, delayMs }),
    });
    return ((await res.json()) as { discoveryId: string }).discoveryId;
  };
  const start = async (request: object, t: Partial<Timing>) =>
    client.workflow.getHandle((await startVerification(client, request, { taskQueue, timing: t })).workflowId);

  try {
    console.log(`History cost per verification (polling intervals scaled by ${SCALE}; counts are unchanged):`);
    await measure('happy path', await start({ ...base, patient, payerId: '60054' }, timing));

    const signalled = await discovery(-1);
    const bySignal = await start({ ...base, patient, discoveryId: signalled }, { ...timing, pollInitialSeconds: 3600 });
    const owner = client.workflow.getHandle(discoveryWorkflowId(signalled));
    // Registered with discovery-<id> before the webhook comes, as a verification normally is.
    while ((await owner.query(discoveryWaitersQuery).catch(() => [])).length === 0) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await fetch(`${sandboxUrl}/sandbox/discoveries/${signalled}/complete`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    // The webhook receiver's one call: the update reaches discovery-<id>, which hands the discovery over.
    await owner.signal(discoveryUpdatedSignal, { discoveryId: signalled });
    await measure('discovery by webhook signal', bySignal);
    await measure('  + its discovery-<id>', owner);

    // The discovery completes just after one hour (scaled): the wait polls through the whole first hour.
    const hour = 3600 * SCALE * 1000;
    const polled = await discovery(Math.round(hour));
    await measure(
      'discovery by polling, 1 hour',
      await start({ ...base, patient, discoveryId: polled }, timing),
      ', no signal',
    );
    await measure('  + its discovery-<id>', client.workflow.getHandle(discoveryWorkflowId(polled)));
  } finally {
    worker.shutdown();
    await running;
    await nativeConnection.close();
    await connection.close();
    await sandbox.close();
    await server.stop();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
