import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { loadConfig, type Config } from '../../src/config.js';
import { findOnPath } from '../../apps/dev/find-on-path.js';
import { requireIntakeApiKey } from '../../apps/intake-api/api-key.js';
import { WEBHOOK_PATH } from '../../apps/receiver/index.js';
import { Closers } from '../closers.js';
import type { IntakeEndpoint } from '../faults/intake-http.js';
import { SandboxControl } from '../faults/sandbox-control.js';
import { connectStackClient, stackEnv } from '../stack-env.js';
import { buildCompiled, roleSpec, runCli } from './app-processes.js';
import { allocatePorts } from './ports.js';
import { initPostgres, type PostgresCluster } from '../../testing/postgres.js';
import { setupSchema } from './schema.js';
import { ensureServerBinaries, type ServerBinaries } from './server-binaries.js';
import { SupervisedProcess } from './supervised-process.js';
import {
  serverEnv,
  serviceSpec,
  TEMPORAL_SERVICES,
  type TemporalPorts,
  type TemporalService,
} from './temporal-services.js';

const PORT_NAMES = [
  'postgres',
  'frontendGrpc',
  'frontendHttp',
  'frontendMembership',
  'historyGrpc',
  'historyMembership',
  'matchingGrpc',
  'matchingMembership',
  'workerGrpc',
  'workerMembership',
  'sandbox',
  'receiver1',
  'receiver2',
  'intake',
  'worker1Http',
  'worker2Http',
] as const;

export const RECEIVERS = 2;

export interface TopologyOptions {
  /** First of the consecutive ports the topology takes (PORT_NAMES.length of them); unset = any free ports. */
  basePort?: number;
  /** `ELIGIBILITY_MAX_RPS` of the workers' task queue. */
  maxRps: number;
  /** Progress lines (the caller adds the time, if it wants it). */
  log: (line: string) => void;
}

/**
 * The production topology on one machine: PostgreSQL, the four Temporal services, and the project's processes as a
 * deployment runs them (two workers, two webhook receivers, the intake API, the sandbox standing in for the service),
 * each a supervised process with its log in `<runDir>/logs`. `close()` stops them all, the project first.
 */
export interface Topology {
  runDir: string;
  logDir: string;
  binaries: ServerBinaries;
  pg: PostgresCluster;
  postgres: SupervisedProcess;
  services: Record<TemporalService, SupervisedProcess>;
  sandbox: SupervisedProcess;
  workers: SupervisedProcess[];
  receivers: SupervisedProcess[];
  intake: SupervisedProcess;
  /** The environment of the project's processes (and of CLI commands run against the topology). */
  env: Record<string, string>;
  config: Config;
  client: Client;
  frontendAddress: string;
  sandboxControl: SandboxControl;
  intakeEndpoint: IntakeEndpoint;
  receiverUrls: string[];
  /** Every supervised process, in start order. */
  processes(): SupervisedProcess[];
  /** Stops everything; the run folder is removed unless `keepRunDir`. */
  close(options?: { keepRunDir?: boolean }): Promise<void>;
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const { log } = options;
  const baseConfig = loadConfig('dev');
  const binaries = await ensureServerBinaries({
    cacheDir: baseConfig.temporal.cacheDir,
    go: await findOnPath('go', baseConfig.temporal.searchPath),
    log,
  });
  const ports = await allocatePorts(PORT_NAMES, options.basePort);
  const runDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-topology-'));
  const logDir = path.join(runDir, 'logs');
  await fs.mkdir(logDir);
  log(`run folder ${runDir} (logs of every process in ${logDir})`);
  const supervised: SupervisedProcess[] = [];
  const closers = new Closers((err) => log(`while stopping: ${String(err)}`));
  let keep = true;
  closers.add(async () => {
    if (!keep) await fs.rm(runDir, { recursive: true, force: true });
  });
  closers.add(() => Promise.all(supervised.map((p) => p.closeLog())));
  const supervise = (p: SupervisedProcess, signal: NodeJS.Signals = 'SIGTERM') => {
    supervised.push(p);
    closers.add(() => p.stop(signal));
    return p;
  };
  try {
    // Built while the database and the server come up: the roles need it only at the end.
    const bundled = buildCompiled();
    bundled.catch(() => undefined);

    const pg = await initPostgres(runDir, ports.postgres);
    // SIGINT: PostgreSQL's fast shutdown, what its image's stop signal asks for.
    const postgres = supervise(new SupervisedProcess(pg.spec, logDir), 'SIGINT');
    await postgres.start();
    log(`PostgreSQL ${pg.version} on 127.0.0.1:${pg.port} (data in ${pg.dataDir})`);
    await setupSchema(binaries.sqlTool, pg, path.join(logDir, 'schema.log'));
    log('schema of temporal and temporal_visibility set up with temporal-sql-tool');

    const temporalPorts: TemporalPorts = ports;
    const env = serverEnv(pg, temporalPorts);
    const services = {} as Record<TemporalService, SupervisedProcess>;
    for (const service of TEMPORAL_SERVICES) {
      services[service] = supervise(new SupervisedProcess(serviceSpec(service, binaries.server, env, ports), logDir));
    }
    // History first: the first service to start on a fresh database writes the cluster's metadata, and two writing it
    // at once fail (compose orders its containers the same way).
    await services.history.start();
    await Promise.all(TEMPORAL_SERVICES.filter((s) => s !== 'history').map((service) => services[service].start()));
    const frontendAddress = `127.0.0.1:${ports.frontendGrpc}`;
    log(
      `Temporal server ${binaries.version}: ${TEMPORAL_SERVICES.join(', ')} as 4 processes; frontend ${frontendAddress}`,
    );

    const webhookSecret = randomBytes(32).toString('hex');
    const appEnv: Record<string, string> = {
      ...stackEnv({
        temporalAddress: frontendAddress,
        sandboxPort: ports.sandbox,
        name: 'topology',
        maxRps: options.maxRps,
        sandboxRate: 100_000,
      }),
      SANDBOX_WEBHOOK_SECRET: webhookSecret,
      WEBHOOK_SIGNING_SECRET: webhookSecret,
      INTAKE_HOST: '127.0.0.1',
      INTAKE_PORT: String(ports.intake),
      // A killed worker's activities are retried after their timeouts; a stopped one gets a moment to finish.
      WORKER_SHUTDOWN_GRACE_SECONDS: '5',
      // The rate stays at --max-rps: the sandbox's injected 429s come at random (a fault to retry, not a limit to
      // find), and the governor would read each one as the limit and cut the rate until the run outlasts its faults.
      // The governor's answer to real 429s is measured by `npm run bench:traffic`.
      ELIGIBILITY_GOVERNOR: 'false',
    };
    const config = loadConfig('dev', { ...process.env, ...appEnv });
    // A fresh cluster has no namespace: `eligibility setup` makes it ready, as an operator of a real cluster would.
    await bundled;
    const setup = await runCli(appEnv, ['setup']);
    log(`eligibility setup: ${setup.trim().split('\n').slice(0, 3).join('; ')}`);
    const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
    const sandbox = supervise(
      new SupervisedProcess(roleSpec('sandbox', 'sandbox', appEnv, `${sandboxUrl}/sandbox/faults`), logDir),
    );
    await sandbox.start();
    // Each worker's /metrics, /healthz and /readyz on a port of its own, as two containers would have.
    const workerHttpPorts = [ports.worker1Http, ports.worker2Http];
    const workers = workerHttpPorts.map((port, i) =>
      supervise(
        new SupervisedProcess(
          roleSpec(`worker-${i + 1}`, 'worker', { ...appEnv, WORKER_HTTP_PORT: String(port) }),
          logDir,
        ),
      ),
    );
    const receiverPorts = [ports.receiver1, ports.receiver2];
    const receivers = receiverPorts.map((port, i) =>
      supervise(
        new SupervisedProcess(
          roleSpec(
            `receiver-${i + 1}`,
            'receiver',
            { ...appEnv, WEBHOOK_PORT: String(port) },
            `http://127.0.0.1:${port}/`,
          ),
          logDir,
        ),
      ),
    );
    const intakeUrl = `http://127.0.0.1:${ports.intake}`;
    const intake = supervise(
      new SupervisedProcess(roleSpec('intake', 'intake', appEnv, `${intakeUrl}/docs/openapi.json`), logDir),
    );
    await Promise.all([...workers, ...receivers, intake].map((p) => p.start()));
    log(`sandbox ${sandboxUrl}, ${workers.length} workers, ${RECEIVERS} receivers, intake API ${intakeUrl}`);

    const receiverUrls = receiverPorts.map((port) => `http://127.0.0.1:${port}${WEBHOOK_PATH}`);
    for (const url of receiverUrls) await runCli(appEnv, ['webhooks', 'register', url]);
    log(`both receivers registered at the sandbox for its webhook events`);

    const temporalClient = await connectStackClient(config);
    closers.add(() => temporalClient.close());
    keep = false;
    return {
      runDir,
      logDir,
      binaries,
      pg,
      postgres,
      services,
      sandbox,
      workers,
      receivers,
      intake,
      env: appEnv,
      config,
      client: temporalClient.client,
      frontendAddress,
      sandboxControl: new SandboxControl(sandboxUrl),
      intakeEndpoint: { url: intakeUrl, apiKey: requireIntakeApiKey(config.intake) },
      receiverUrls,
      processes: () => [...supervised],
      close: async (closeOptions) => {
        keep = closeOptions?.keepRunDir ?? false;
        await closers.close();
      },
    };
  } catch (err) {
    log(`the topology did not come up; stopping what started. Logs kept in ${logDir}`);
    await closers.close();
    throw err;
  }
}
