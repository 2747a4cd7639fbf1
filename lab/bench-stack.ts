import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { createDataConverter } from '../src/codec/data-converter.js';
import { generateKey } from '../src/codec/keys.js';
import { loadConfig } from '../src/config.js';
import { findTemporalCli } from '../apps/dev/temporal-cli.js';
import { freePort } from '../src/free-port.js';
import { startDevServer, type DevServer } from '../apps/dev/temporal-dev-server.js';
import { loadSandboxConfig } from '../sandbox/config.js';
import { createSandbox, type Sandbox } from '../sandbox/server.js';

/**
 * What a worker benchmark runs against, all in this process except the worker: its own Temporal dev server (in
 * memory), a sandbox whose rate limit cannot bind, and a client encrypting with a key made for the run.
 */
export interface BenchStack {
  server: DevServer;
  sandbox: Sandbox;
  sandboxUrl: string;
  client: Client;
  /** The environment of a worker process of this stack: its own task queue, the same key, no rate limit that binds. */
  workerEnv: Record<string, string>;
  taskQueue: string;
  stop(): Promise<void>;
}

/** A rate limit the sandbox enforces (R requests per second, bucket `burst`), for benchmarks where it must bind. */
export interface BenchStackOptions {
  sandboxRate?: { perSecond: number; burst: number };
}

export async function startBenchStack(options: BenchStackOptions = {}): Promise<BenchStack> {
  const config = loadConfig('dev');
  const server = await startDevServer({ cliPath: await findTemporalCli(config.temporal) });
  // Unless a benchmark sets one, far above anything the worker can ask for: the sandbox's limit and
  // ELIGIBILITY_MAX_RPS must not be what is timed.
  const rate = options.sandboxRate ?? { perSecond: 100_000, burst: 100_000 };
  const sandbox = await createSandbox({
    ...loadSandboxConfig(),
    port: 0,
    ratePerSecond: rate.perSecond,
    rateBurst: rate.burst,
  });
  const sandboxUrl = (await sandbox.listen()).replace(/\/$/, '');
  const keys = generateKey('bench');
  const connection = await Connection.connect({ address: server.address });
  // Made as its workers make theirs, from the same settings: ENCRYPTION_DISABLED=true runs both sides in plaintext, and
  // the codec's cost shows by difference.
  const client = new Client({ connection, dataConverter: await createDataConverter({ ...config.codec, keys }) });
  const taskQueue = `bench-${randomUUID()}`;
  const workerEnv = {
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: server.namespace,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ELIGIBILITY_BASE_URL: sandboxUrl,
    ELIGIBILITY_MAX_RPS: '100000',
    CODEC_KEYS: keys,
    LOG_LEVEL: 'warn',
    // Not the default 4040, which a stack already running on the machine may hold.
    WORKER_HTTP_PORT: String(await freePort()),
  };
  return {
    server,
    sandbox,
    sandboxUrl,
    client,
    workerEnv,
    taskQueue,
    async stop() {
      await connection.close();
      await sandbox.close();
      await server.stop();
    },
  };
}

/**
 * The `eligibility` command as a user runs it: the compiled build, made here first (`npm run build`) so that it is this
 * tree's. Not the TypeScript sources through tsx, whose loader a worker would carry as some 40 MB of its memory.
 */
export function builtCli(): string[] {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return [fileURLToPath(new URL('../bin/eligibility.js', import.meta.url))];
}

/** What a worker process prints once it polls its task queue (workers/run-worker.ts, lab/worker-child.ts). */
export const WORKER_READY = 'Worker polling task queue';

/** A worker in a child process, so its memory and CPU are its own. */
export interface WorkerChild {
  pid: number;
  /** Resolves once it polls its task queue. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** Starts `node <args>` with `env` added; it is ready when it prints `WORKER_READY`. */
export function startWorkerChild(args: string[], env: Record<string, string>): WorkerChild {
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(WORKER_READY)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => reject(new Error(`the worker exited before it was ready:\n${output}`)));
  });
  ready.catch(() => undefined);
  return {
    pid: child.pid!,
    ready,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
export async function forEachLimited(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** `--name value` from the command line, as a positive number (or zero, when `zero` allows it). */
export function numberArg(name: string, fallback: number, { zero = false } = {}): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !zero)) {
    throw new Error(`--${name} expects a ${zero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

/** Every `--env NAME=value` from the command line: settings for the worker process (e.g. NODE_OPTIONS). */
export function envArgs(): Record<string, string> {
  const env: Record<string, string> = {};
  process.argv.forEach((arg, i) => {
    if (arg !== '--env') return;
    const [name, value] = nameValue(process.argv[i + 1] ?? '', '--env');
    env[name] = value;
  });
  return env;
}

/** One `NAME=value` of a command-line flag (`--env`, `--settings`), split at its first `=`. */
export function nameValue(pair: string, flag: string): [string, string] {
  const eq = pair.indexOf('=');
  if (eq < 1) throw new Error(`${flag} expects NAME=value, got ${pair}`);
  return [pair.slice(0, eq), pair.slice(eq + 1)];
}
