import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { setUpNamespace } from '../../src/temporal/namespace-setup.js';
import { freePort } from '../../src/free-port.js';
import { outputTail } from './output-tail.js';
import { devServerDynamicConfig } from './temporal-release.js';

export interface DevServerOptions {
  /** The Temporal CLI binary (see `findTemporalCli`). */
  cliPath: string;
  ip?: string;
  /** gRPC port; 0 or unset = a free port. */
  port?: number;
  /** UI port; unset = no UI (headless). */
  uiPort?: number;
  namespace?: string;
  /** SQLite file for state that survives restarts; unset = in memory. */
  dbFile?: string;
  /** Further `start-dev` arguments, e.g. `--ui-codec-endpoint`. */
  extraArgs?: readonly string[];
  /** How long to wait for the frontend to answer. */
  startTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  namespace: string;
  uiUrl: string | undefined;
  /** The server's process (benchmarks count its CPU). */
  pid: number;
  stop(): Promise<void>;
}

export class DevServerError extends Error {
  override name = 'DevServerError';
}

/** Rejects with a message naming the port when something already listens there. */
export async function assertPortFree(port: number, ip: string, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new DevServerError(
          err.code === 'EADDRINUSE'
            ? `Port ${port} (${what}) is already in use on ${ip}; stop what uses it or choose another port.`
            : `Port ${port} (${what}) cannot be used on ${ip}: ${err.message}`,
        ),
      ),
    );
    server.listen(port, ip, () => server.close(() => resolve()));
  });
}

function startDevArgs(o: Required<Pick<DevServerOptions, 'ip' | 'port' | 'namespace'>> & DevServerOptions): string[] {
  const args = ['server', 'start-dev', '--ip', o.ip, '--port', String(o.port), '--namespace', o.namespace];
  args.push('--log-level', 'warn', '--log-format', 'json');
  if (o.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(o.uiPort));
  if (o.dbFile) args.push('--db-filename', o.dbFile);
  for (const value of devServerDynamicConfig()) args.push('--dynamic-config-value', value);
  return [...args, ...(o.extraArgs ?? [])];
}

async function waitUntilServing(address: string, child: ChildProcess, timeoutMs: number, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new DevServerError(`The Temporal dev server exited with code ${child.exitCode}:\n${output()}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await sleep(200);
    }
  }
  throw new DevServerError(
    `The Temporal dev server did not answer on ${address} within ${timeoutMs} ms (${String(lastError)}):\n${output()}`,
  );
}

/**
 * Starts `temporal server start-dev`, waits until it serves, and sets its namespace up as `eligibility setup` does
 * (the project's search attributes; the dynamic config is passed on the command line, from the one file).
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const namespace = options.namespace ?? 'default';
  const port = options.port ? options.port : await freePort(ip);
  if (options.port) await assertPortFree(port, ip, 'Temporal gRPC');
  if (options.uiPort !== undefined) await assertPortFree(options.uiPort, ip, 'Temporal UI');
  if (options.dbFile) await fs.mkdir(path.dirname(options.dbFile), { recursive: true });

  const child = spawn(options.cliPath, startDevArgs({ ...options, ip, port, namespace }), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = outputTail(child);
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) => reject(new DevServerError(`Cannot run ${options.cliPath}: ${err.message}`)));
  });
  await spawned;
  const address = `${ip}:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  try {
    await waitUntilServing(address, child, options.startTimeoutMs ?? 60_000, output);
    // The same setup as `eligibility setup` on a real cluster: one home for what a namespace needs.
    const connection = await Connection.connect({ address });
    try {
      await setUpNamespace(connection, namespace);
    } finally {
      await connection.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const uiUrl = options.uiPort === undefined ? undefined : `http://${ip}:${options.uiPort}`;
  return { address, namespace, uiUrl, pid: child.pid!, stop };
}
