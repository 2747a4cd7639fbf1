import { prepareCompiled } from '../../testing/compiled.js';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { requireIntakeApiKey } from '../../apps/intake-api/api-key.js';
import { createLogger } from '../../src/logging.js';
import { eventServices, secretBox } from '../../src/events/services.js';
import { openStore, type Store } from '../../src/store/database.js';
import { startThrowawayPostgres } from '../../testing/postgres.js';
import { loadSandboxConfig } from '../../sandbox/config.js';
import { createSandbox, type Sandbox } from '../../sandbox/server.js';
import { findTemporalCli } from '../../apps/dev/temporal-cli.js';
import type { TemporalClient } from '../../src/temporal/client.js';
import { freePort } from '../../src/free-port.js';
import { Closers } from '../closers.js';
import { connectStackClient, stackEnv } from '../stack-env.js';
import type { Timing } from '../../workflows/shared/timing.js';
import type { IntakeEndpoint } from './intake-http.js';
import { SandboxControl } from './sandbox-control.js';
import { RestartableTemporal } from './temporal-server.js';
import { WorkerChild } from './worker-child.js';

/** Verifications of the suite complete a second after creation, so rows settle quickly. */
export const SUITE_TIMING: Partial<Timing> = { graceSeconds: 1 };

/**
 * Everything the scenarios run against: a restartable Temporal dev server, the sandbox (in this process, driven over
 * HTTP), the worker as a child process, the intake API (in this process, on a port, over HTTP) and a Temporal client
 * made the way every edge of the project makes one.
 */
export interface FaultStack {
  config: Config;
  dataDir: string;
  temporal: RestartableTemporal;
  client: TemporalClient['client'];
  sandbox: SandboxControl;
  worker: WorkerChild;
  /** The intake API of the worker's task queue. */
  intake: IntakeEndpoint;
  /** With `events`: the database of endpoints, events and deliveries, which the intake API and the worker share. */
  store?: Store;
  /** Another intake API, on a task queue no worker polls (verifications it starts stay put, costing nothing). */
  startIntake(taskQueue: string): Promise<IntakeEndpoint & { close(): Promise<void> }>;
  close(): Promise<void>;
}

export interface FaultStackOptions {
  /** `ELIGIBILITY_MAX_RPS` (default 40: 400 rows last about 20 s, so the batch still runs when the worker is killed). */
  maxRps?: number;
  /**
   * Outbound events (docs/developing/event-delivery.md): a throwaway PostgreSQL for the worker's deliverer
   * (DATABASE_URL) and the intake API's event endpoints; `endpointConcurrency` is the worker's
   * EVENTS_ENDPOINT_CONCURRENCY (unset: the configuration's default).
   */
  events?: { endpointConcurrency?: number };
}

export async function startFaultStack(
  log: (line: string) => void,
  options: FaultStackOptions = {},
): Promise<FaultStack> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-faults-'));
  const closers = new Closers();
  closers.add(() => fs.rm(dataDir, { recursive: true, force: true }));
  const close = () => closers.close();
  try {
    const cliPath = await findTemporalCli(loadConfig('dev').temporal);
    const temporal = await RestartableTemporal.start(cliPath, dataDir);
    closers.add(() => temporal.down());
    const env = stackEnv({
      temporalAddress: temporal.address,
      sandboxPort: await freePort(),
      name: 'faults',
      maxRps: options.maxRps ?? 40,
      sandboxRate: 10_000,
    });
    let store: Store | undefined;
    if (options.events) {
      const postgres = await startThrowawayPostgres();
      closers.add(() => postgres.stop());
      env.DATABASE_URL = postgres.url;
      if (options.events.endpointConcurrency !== undefined)
        env.EVENTS_ENDPOINT_CONCURRENCY = String(options.events.endpointConcurrency);
      store = await openStore(postgres.url);
      closers.add(() => store!.close());
    }
    const config = loadConfig('dev', { ...process.env, ...env });

    const sandbox: Sandbox = await createSandbox(loadSandboxConfig({ ...process.env, ...env }));
    const sandboxUrl = (await sandbox.listen()).replace(/\/$/, '');
    closers.add(() => sandbox.close());

    const temporalClient = await connectStackClient(config);
    closers.add(() => temporalClient.close());
    const { client } = temporalClient;
    const events = store ? eventServices(store, await secretBox(config)) : undefined;

    const startIntake = async (taskQueue: string) => {
      // Silent: the suite counts every answer itself, and 10,000 refusals would bury the progress lines.
      const logger = createLogger(loadConfig('dev', { ...process.env, ...env, LOG_LEVEL: 'silent' }));
      const app: FastifyInstance = createIntakeApi({
        config,
        client,
        taskQueue,
        logger,
        timing: SUITE_TIMING,
        ...(events ? { events } : {}),
      });
      const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
      return { url, apiKey: requireIntakeApiKey(config.intake), close: () => app.close() };
    };
    const intake = await startIntake(config.temporal.taskQueue);
    closers.add(() => intake.close());

    // Its metrics and probes on a port of its own: another stack may run beside this one.
    closers.add(await prepareCompiled());
    const worker = new WorkerChild({ ...env, WORKER_HTTP_PORT: String(await freePort()) });
    closers.add(() => worker.stop());
    const readyMs = await worker.start();

    log(`Temporal dev server ${temporal.address} (state in ${temporal.dbFile})`);
    log(`sandbox ${sandboxUrl}, intake API ${intake.url}, task queue ${config.temporal.taskQueue}`);
    log(`worker process pid ${worker.pid} (polling after ${(readyMs / 1000).toFixed(1)} s)`);
    return {
      config,
      dataDir,
      temporal,
      client,
      sandbox: new SandboxControl(sandboxUrl),
      worker,
      intake,
      ...(store ? { store } : {}),
      startIntake,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
