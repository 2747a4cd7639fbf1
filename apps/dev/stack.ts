import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import type { Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { createDataConverter } from '../../src/codec/data-converter.js';
import { loadBlindIndexKeys } from '../../src/blind-index/keys.js';
import { ensureKeyFile } from '../../src/codec/keys.js';
import { ensurePatientIdKeyFile, loadPatientIdKey } from '../../src/patients/id-key.js';
import { startCodecServer } from '../codec-server/run-codec-server.js';
import { createIntakeApi } from '../intake-api/api.js';
import { FailedKeys } from '../intake-api/api-key.js';
import { devIntakeKey } from './intake-key.js';
import { createLogger } from '../../src/logging.js';
import { createConsole } from '../console/server.js';
import { PayerNames } from '../../src/payers/payer-names.js';
import { EligibilityClient } from '../../src/client/index.js';
import { devConsole, devOperatorName } from './console-operator.js';
import { ensureRefreshSchedule } from '../../src/schedules/refresh-schedules.js';
import type { SandboxConfig } from '../../sandbox/config.js';
import { createSandbox } from '../../sandbox/server.js';
import { findTemporalCli } from './temporal-cli.js';
import { connectClient, lazyClient } from '../../src/temporal/client.js';
import { assertPortFree, startDevServer } from './temporal-dev-server.js';
import { createWebhookReceiver, WEBHOOK_PATH } from '../receiver/index.js';
import { runWorker } from '../../workers/run-worker.js';
import { moveEarlierBuildsHere } from './earlier-builds.js';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadAuditSigning } from '../../src/audit/signing.js';
import { openStore, type Store } from '../../src/store/database.js';
import { mintCodecToken } from '../../src/access/codec-tokens.js';
import { eventServices } from '../../src/events/services.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { sealingKeys } from '../../src/codec/sealing.js';
import { Visits } from '../../src/visits/index.js';
import { startEmbeddedDatabase } from '../../src/store/embedded.js';
import { builtTracedWorkflowBundle, compiled, packageFile } from '../../src/package-layout.js';

export interface DevStackOptions {
  config: Config;
  /** The sandbox's own variables (sandbox/config.ts), apart from the product's. */
  sandbox: SandboxConfig;
  /** false: use the Temporal server at TEMPORAL_ADDRESS instead of starting one. */
  startTemporal: boolean;
  log: (line: string) => void;
}

export interface DevStack {
  /** The configuration the stack runs with (sandbox URL and webhook secret filled in). */
  config: Config;
  client: Client;
  uiUrl: string | undefined;
  /** undefined when ENCRYPTION_DISABLED=true. */
  codecServerUrl: string | undefined;
  sandboxUrl: string;
  webhookUrl: string;
  intakeUrl: string;
  /** DATABASE_URL: the embedded database the stack serves (DEV_DATA_DIR), unless DATABASE_URL named one. */
  databaseUrl: string;
  /** Where the intake API key is kept (DEV_DATA_DIR); undefined when INTAKE_API_KEY was given. */
  intakeKeyFile: string | undefined;
  consoleUrl: string;
  /** The dev operator made for this run; undefined when CONSOLE_OPERATORS was set. */
  consoleCredentials: { name: string; password: string } | undefined;
  stop(): Promise<void>;
}

/** The Worker Deployment of the dev stack's worker, unless WORKER_DEPLOYMENT_NAME names one. */
const DEV_DEPLOYMENT = 'eligibility-dev';

function hostPort(address: string): { ip: string; port: number } {
  const at = address.lastIndexOf(':');
  return { ip: address.slice(0, at), port: Number(address.slice(at + 1)) };
}

/**
 * With no webhook authentication configured, the stack signs deliveries with a secret made for this run, shared by
 * its sandbox and its receiver, so `npm start` needs no setup and still never runs an unauthenticated receiver.
 */
function withDevSecret(config: Config, sandbox: SandboxConfig): { config: Config; sandbox: SandboxConfig } {
  const { webhook } = config;
  const otherAuth = webhook.basicAuth !== undefined || webhook.authDisabled;
  const secret = webhook.signingSecret ?? (otherAuth ? undefined : randomBytes(32).toString('hex'));
  if (secret === undefined) return { config, sandbox };
  return {
    config: { ...config, webhook: { ...webhook, signingSecret: secret } },
    sandbox: { ...sandbox, webhookSecret: sandbox.webhookSecret ?? secret },
  };
}

/**
 * Encryption for the local stack: the key file is made on the first run (CODEC_KEYS, when set, wins), and the codec
 * server checks passes signed with a secret made for this run unless one is set. The stack's own console operator gets
 * a pass for as long as the run lasts, in the endpoint Temporal UI is started with: on this one machine, the person at
 * Temporal UI is the one who ran `npm start`. With ENCRYPTION_DISABLED=true it says so loudly.
 */
async function startDevCodec(config: Config, store: Store, log: (line: string) => void) {
  if (config.codec.disabled) {
    log('');
    log('!!! ENCRYPTION IS OFF (ENCRYPTION_DISABLED=true): patient data is stored and shown in plaintext by Temporal.');
    log('');
    return undefined;
  }
  if (!config.codec.keys && (await ensureKeyFile(config.codec.keyFile))) {
    log(`Made a local payload encryption key in ${config.codec.keyFile}`);
  }
  const tokenSecret = config.codec.server.tokenSecret ?? randomBytes(32).toString('hex');
  const uiOrigins = [`http://127.0.0.1:${config.dev.uiPort}`, `http://localhost:${config.dev.uiPort}`];
  const withCodec: Config = {
    ...config,
    codec: {
      ...config.codec,
      server: {
        ...config.codec.server,
        tokenSecret,
        origins: [...new Set([...config.codec.server.origins, ...uiOrigins])],
      },
    },
  };
  if (config.codec.server.port !== 0) {
    await assertPortFree(config.codec.server.port, config.codec.server.host, 'codec server');
  }
  // Temporal is not up yet: the codec server connects when it first describes a workflow.
  const temporal = await lazyClient(config.temporal, { dataConverter: {} });
  const server = await startCodecServer(withCodec, { store, client: temporal.client }, tokenSecret);
  const pass = await mintCodecToken(
    tokenSecret,
    { name: devOperatorName(config), role: 'admin', tenants: null, source: 'config' },
    DEV_PASS_SECONDS,
  );
  log(`Codec server on ${server.url} (payloads are encrypted; Temporal UI decrypts through it)`);
  return {
    // The console's Temporal UI page gives people an endpoint on the address the server is bound to.
    config: {
      ...withCodec,
      codec: { ...withCodec.codec, server: { ...withCodec.codec.server, publicUrl: server.url } },
    },
    uiEndpoint: `${server.url}/p/${pass}`,
    url: server.url,
    close: async () => {
      await server.close();
      await temporal.close();
    },
  };
}

/** Longer than any run of the stack: the secret that signs it is made per run, so the pass ends with the run. */
const DEV_PASS_SECONDS = 30 * 24 * 3600;

async function listen(app: FastifyInstance, host: string, port: number, what: string): Promise<string> {
  if (port !== 0) await assertPortFree(port, host, what);
  return (await app.listen({ host, port })).replace(/\/$/, '');
}

/** The configuration with Temporal at the dev server the stack starts (`config.dev.temporal`), without a profile's TLS. */
export function onLocalDevServer(config: Config): Config {
  const { tls: _tls, apiKey: _apiKey, grpcMeta: _grpcMeta, ...temporal } = config.temporal;
  const { address, namespace } = config.dev.temporal;
  return {
    ...config,
    temporal: { ...temporal, address, namespace },
    codec: { ...config.codec, server: { ...config.codec.server, namespace } },
  };
}

/**
 * The whole product on one machine: a Temporal dev server (state in DEV_DATA_DIR, UI on TEMPORAL_UI_PORT), the
 * sandbox, a worker, the webhook receiver, the intake API and the operator console. `stop()` stops them in reverse order; a part that
 * fails to start stops the parts already running.
 */
export async function startDevStack(options: DevStackOptions): Promise<DevStack> {
  const { log } = options;
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err: unknown) => log(`while stopping: ${String(err)}`));
  };
  try {
    const signed = withDevSecret(
      options.startTemporal ? onLocalDevServer(options.config) : options.config,
      options.sandbox,
    );
    let config = signed.config;
    // The servers' request logs go to a file: the terminal is for the summary a person reads.
    const logFile = path.resolve(config.dev.dataDir, 'eligibility.log');
    await mkdir(path.dirname(logFile), { recursive: true });
    const logger = createLogger(config, 'eligibility', pino.destination({ dest: logFile, append: true, sync: true }));
    log(`Logs of the servers: ${path.relative(process.cwd(), logFile) || logFile}`);
    // `npm start` compiles the code alone: a new build's workflow bundles are made here, in a child process while the
    // database and Temporal start, into dist/ (for the next start and `eligibility worker` too; the traced one last).
    const bundling =
      compiled && !config.worker.workflowBundlePath && !existsSync(builtTracedWorkflowBundle)
        ? promisify(execFile)(process.execPath, [packageFile('dist/workers/build-workflow-bundle.js')])
        : undefined;
    bundling?.catch(() => undefined); // its failure is thrown where the worker awaits it
    // Found, or fetched on a machine's first run (seconds), while the database starts; awaited where the server starts.
    const cliPath = options.startTemporal ? findTemporalCli({ ...config.temporal, log }) : undefined;
    cliPath?.catch(() => undefined); // its failure is thrown by that await, not as an unhandled rejection before it
    // Intake clients, operators and the audit trail: an embedded PostgreSQL in DEV_DATA_DIR unless DATABASE_URL names one.
    if (!config.database.url) {
      const embedded = await startEmbeddedDatabase(path.resolve(config.dev.dataDir, 'database'), config.database.port);
      stops.push(() => embedded.stop());
      config = { ...config, database: { ...config.database, url: embedded.url } };
    }
    const databaseUrl = config.database.url!;
    const store = await openStore(databaseUrl);
    stops.push(() => store.close());

    const codec = await startDevCodec(config, store, log);
    if (codec) stops.push(() => codec.close());
    config = codec?.config ?? config;
    let uiUrl: string | undefined;
    if (options.startTemporal) {
      const { ip, port } = hostPort(config.temporal.address);
      const server = await startDevServer({
        cliPath: (await cliPath)!,
        ip,
        port,
        uiPort: config.dev.uiPort,
        namespace: config.temporal.namespace,
        dbFile: path.resolve(config.dev.dataDir, 'temporal.sqlite'),
        // Temporal UI asks the codec server to decrypt what it shows; the database keeps only ciphertext.
        extraArgs: codec ? ['--ui-codec-endpoint', codec.uiEndpoint] : [],
      });
      stops.push(() => server.stop());
      uiUrl = server.uiUrl;
      log(`Temporal dev server on ${server.address}${uiUrl ? `, Temporal UI at ${uiUrl}` : ''}`);
    }

    const sandbox = await createSandbox(signed.sandbox);
    if (signed.sandbox.port !== 0) await assertPortFree(signed.sandbox.port, signed.sandbox.host, 'sandbox');
    const sandboxUrl = (await sandbox.listen()).replace(/\/$/, '');
    stops.push(() => sandbox.close());
    // Refreshes discover coverage at the sandbox's discoveries unless configured otherwise (decision 0051).
    const discoveryCreatePath = config.service.discoveryCreatePath ?? '/sandbox/discoveries';
    config = { ...config, service: { ...config.service, baseUrl: sandboxUrl, discoveryCreatePath } };
    log(`Sandbox of the eligibility service on ${sandboxUrl}`);

    const temporal = await connectClient(config.temporal, { dataConverter: await createDataConverter(config.codec) });
    stops.push(() => temporal.close());

    // The dev stack's build is always its deployment's current version; workflows of earlier builds move onto it.
    const deploymentName = config.worker.deployment?.name ?? DEV_DEPLOYMENT;
    const workerConfig = {
      ...config,
      worker: {
        ...config.worker,
        deployment: { name: deploymentName, rollout: 'always' as const, exitWhenDrained: false },
      },
    };
    await bundling;
    const workerStop = new AbortController();
    let versionCurrent!: () => void;
    const current = new Promise<void>((resolve) => (versionCurrent = resolve));
    const worker = runWorker(workerConfig, {
      signal: workerStop.signal,
      log,
      takeWorkflowsBeforeVersioning: true,
      onVersionCurrent: async ({ name, buildId }) => {
        const moved = await moveEarlierBuildsHere(temporal.client, name, buildId);
        if (moved > 0) log(`${moved} open workflow(s) of earlier builds moved to this build (${buildId})`);
        versionCurrent();
      },
    });
    stops.push(async () => {
      workerStop.abort();
      await worker;
    });
    // New workflows (the example file's) start once this build takes them.
    await Promise.race([current, worker]);
    // The install's monthly refresh (tenant `default`), created paused: a person resumes or triggers it (decision 0050).
    if (await ensureRefreshSchedule(temporal.client, config.temporal.taskQueue, { tenant: 'default', paused: true })) {
      log('Monthly refresh schedule refresh-default created, paused (eligibility schedules unpause)');
    }

    const receiver = createWebhookReceiver({
      config,
      client: temporal.client,
      taskQueue: config.temporal.taskQueue,
      logger,
    });
    const webhookBase = await listen(receiver, config.webhook.host, config.webhook.port, 'webhook receiver');
    stops.push(() => receiver.close());
    const intakeKey = await devIntakeKey(config.dev.dataDir, config.intake.apiKey);
    config = { ...config, intake: { ...config.intake, apiKey: intakeKey.key } };
    // One trail for the intake API and the console: both append to the same chain.
    const trail = new AuditTrail(store, await loadAuditSigning(config));
    const clients = new IntakeClients(store);
    // One set of event services for the intake API and the console: both change the same endpoints. One load of the
    // keys for what they seal: endpoint secrets and patient copies.
    const sealing = await sealingKeys(config);
    const events = eventServices(store, new SecretBox(sealing));
    const blindIndex = await loadBlindIndexKeys(config.codec);
    if (!config.patients.idKey && (await ensurePatientIdKeyFile(config.patients.idKeyFile))) {
      log(`Made a local patient id key in ${config.patients.idKeyFile}`);
    }
    const patientIdKey = await loadPatientIdKey(config.patients);
    // One cache of payer names for the console's pages and both services' batch results.
    const payers = new PayerNames(new EligibilityClient(config.service));
    const intake = createIntakeApi({
      config,
      client: temporal.client,
      taskQueue: config.temporal.taskQueue,
      logger,
      timing: { graceSeconds: config.dev.graceSeconds },
      access: { clients, audit: trail, failedKeys: new FailedKeys({ store }) },
      events,
      ...(blindIndex ? { blindIndex } : {}),
      ...(patientIdKey ? { patients: { idKey: patientIdKey } } : {}),
      payers,
    });
    const intakeUrl = await listen(intake, config.intake.host, config.intake.port, 'intake API');
    stops.push(() => intake.close());
    log(`Webhook receiver on ${webhookBase}${WEBHOOK_PATH}, intake API on ${intakeUrl}`);
    const operatorConsole = await devConsole(config);
    config = operatorConsole.config;
    const consoleApp = createConsole({
      config,
      client: temporal.client,
      logger,
      audit: trail,
      directory: new OperatorDirectory(store),
      sessions: store,
      clients,
      events,
      ...(blindIndex ? { blindIndex } : {}),
      payers,
      visits: new Visits(store, sealing),
    });
    const consoleUrl = await listen(consoleApp, config.console.host, config.console.port, 'operator console');
    stops.push(() => consoleApp.close());

    return {
      config,
      client: temporal.client,
      uiUrl,
      codecServerUrl: codec?.url,
      sandboxUrl,
      webhookUrl: `${webhookBase}${WEBHOOK_PATH}`,
      intakeUrl,
      databaseUrl,
      intakeKeyFile: intakeKey.file,
      consoleUrl,
      consoleCredentials: operatorConsole.credentials,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
