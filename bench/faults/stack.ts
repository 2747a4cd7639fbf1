import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createDataConverter } from '../../src/codec/data-converter.js';
import { generateKey } from '../../src/codec/keys.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createIntakeApi } from '../../src/intake-api/api.js';
import { requireIntakeApiKey } from '../../src/intake-api/api-key.js';
import { createLogger } from '../../src/logging.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { findTemporalCli } from '../../src/dev/temporal-cli.js';
import { connectClient, type TemporalClient } from '../../src/temporal/client.js';
import { freePort } from '../../src/dev/temporal-dev-server.js';
import type { Timing } from '../../workflows/timing.js';
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
  /** Another intake API, on a task queue no worker polls (verifications it starts stay put, costing nothing). */
  startIntake(taskQueue: string): Promise<IntakeEndpoint & { close(): Promise<void> }>;
  close(): Promise<void>;
}

export async function startFaultStack(log: (line: string) => void): Promise<FaultStack> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-faults-'));
  const closers: (() => Promise<unknown>)[] = [() => fs.rm(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const cliPath = await findTemporalCli(loadConfig().temporal);
    const temporal = await RestartableTemporal.start(cliPath, dataDir);
    closers.push(() => temporal.down());
    const sandboxPort = await freePort();
    const env: Record<string, string> = {
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: `faults-${randomBytes(3).toString('hex')}`,
      ELIGIBILITY_BASE_URL: `http://127.0.0.1:${sandboxPort}`,
      // Enough for 400 rows in about 20 s: the batch must still be running when the worker is killed.
      ELIGIBILITY_MAX_RPS: '40',
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_RATE_PER_SECOND: '10000',
      SANDBOX_RATE_BURST: '10000',
      CODEC_KEYS: generateKey('faults'),
      INTAKE_API_KEY: randomBytes(24).toString('base64url'),
      WORKER_SHUTDOWN_GRACE_SECONDS: '0',
      LOG_LEVEL: 'warn',
    };
    const config = loadConfig({ ...process.env, ...env });

    const sandbox: Sandbox = await createSandbox(config.sandbox);
    const sandboxUrl = (await sandbox.listen()).replace(/\/$/, '');
    closers.push(() => sandbox.close());

    const temporalClient = await connectClient(config.temporal, {
      dataConverter: await createDataConverter(config.codec),
    });
    closers.push(() => temporalClient.close());
    const { client } = temporalClient;

    const startIntake = async (taskQueue: string) => {
      // Silent: the suite counts every answer itself, and 10,000 refusals would bury the progress lines.
      const logger = createLogger(loadConfig({ ...process.env, ...env, LOG_LEVEL: 'silent' }));
      const app: FastifyInstance = createIntakeApi({ config, client, taskQueue, logger, timing: SUITE_TIMING });
      const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
      return { url, apiKey: requireIntakeApiKey(config.intake), close: () => app.close() };
    };
    const intake = await startIntake(config.temporal.taskQueue);
    closers.push(() => intake.close());

    const worker = new WorkerChild({ ...env });
    closers.push(() => worker.stop());
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
      startIntake,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
