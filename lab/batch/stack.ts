import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { loadSandboxConfig } from '../../sandbox/config.js';
import { createSandbox } from '../../sandbox/server.js';
import { findTemporalCli } from '../../apps/dev/temporal-cli.js';
import type { TemporalClient } from '../../src/temporal/client.js';
import { freePort } from '../../src/free-port.js';
import { Closers } from '../closers.js';
import { connectStackClient, stackEnv } from '../stack-env.js';
import { SandboxControl } from '../faults/sandbox-control.js';
import { RestartableTemporal } from '../faults/temporal-server.js';
import { WorkerChild } from '../faults/worker-child.js';

/** What the batch bench runs against: a dev server with its state on disk, the sandbox, the worker as a child. */
export interface BatchStack {
  config: Config;
  /** The environment of every child process (worker, CLI): same server, task queue and keys. */
  env: Record<string, string>;
  dataDir: string;
  temporal: RestartableTemporal;
  client: TemporalClient['client'];
  sandbox: SandboxControl;
  worker: WorkerChild;
  close(): Promise<void>;
}

/**
 * The service's limits raised so that 10,000 items run in minutes on a small machine: the sandbox's rate limit and
 * the task queue's (`ELIGIBILITY_MAX_RPS`) well above what two cores can drive.
 */
export async function startBatchStack(log: (line: string) => void): Promise<BatchStack> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-batch-bench-'));
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
      name: 'batch-bench',
      maxRps: 500,
      sandboxRate: 100_000,
    });
    const config = loadConfig('dev', { ...process.env, ...env });
    const sandbox = await createSandbox(loadSandboxConfig({ ...process.env, ...env }));
    const sandboxUrl = (await sandbox.listen()).replace(/\/$/, '');
    closers.add(() => sandbox.close());
    const temporalClient = await connectStackClient(config);
    closers.add(() => temporalClient.close());
    const worker = new WorkerChild(env);
    closers.add(() => worker.stop());
    const readyMs = await worker.start();
    log(`Temporal dev server ${temporal.address} (state in ${temporal.dbFile}), sandbox ${sandboxUrl}`);
    log(
      `task queue ${env.TEMPORAL_TASK_QUEUE}, worker pid ${worker.pid} (polling after ${(readyMs / 1000).toFixed(1)} s)`,
    );
    return {
      config,
      env,
      dataDir,
      temporal,
      client: temporalClient.client,
      sandbox: new SandboxControl(sandboxUrl),
      worker,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
