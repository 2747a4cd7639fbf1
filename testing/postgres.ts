import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { outputTail } from '../apps/dev/output-tail.js';
import { freePort } from '../src/free-port.js';

const execFileAsync = promisify(execFile);

/** Where Debian's packages put each major version's binaries. */
const DEBIAN_POSTGRES = '/usr/lib/postgresql';
/** The unprivileged account PostgreSQL runs as when this runs as root (Debian's package creates it). */
const POSTGRES_ACCOUNT = 'postgres';

export class PostgresSetupError extends Error {
  override name = 'PostgresSetupError';
}

/** How to run the cluster's server: what the topology supervises (a `ProcessSpec`) and the tests spawn. */
export interface PostgresProcess {
  name: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  user?: { uid: number; gid: number };
  readyTimeoutMs: number;
  ready: () => Promise<void>;
}

/** A PostgreSQL cluster (the topology's, the tests'): made by `initdb` in a folder of the run, served by one supervised process. */
export interface PostgresCluster {
  version: string;
  port: number;
  user: string;
  password: string;
  dataDir: string;
  spec: PostgresProcess;
}

/** The newest major version installed, e.g. `/usr/lib/postgresql/15/bin`. */
export async function postgresBin(): Promise<{ version: string; bin: string }> {
  const versions = (await fs.readdir(DEBIAN_POSTGRES).catch(() => [] as string[]))
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(DEBIAN_POSTGRES, version, 'bin');
    if (await fs.stat(path.join(bin, 'postgres')).catch(() => undefined)) return { version, bin };
  }
  throw new PostgresSetupError(
    `PostgreSQL is not installed (no ${DEBIAN_POSTGRES}/<version>/bin/postgres): apt-get install postgresql`,
  );
}

/** Root may not run PostgreSQL: then the `postgres` account does; anyone else runs it as themselves. */
async function runAs(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const [uid, gid] = await Promise.all(
      ['-u', '-g'].map(async (flag) => Number((await execFileAsync('id', [flag, POSTGRES_ACCOUNT])).stdout.trim())),
    );
    return { uid: uid!, gid: gid! };
  } catch {
    throw new PostgresSetupError(
      `PostgreSQL refuses to run as root and there is no \`${POSTGRES_ACCOUNT}\` account to run it as: ` +
        `create one (useradd --system ${POSTGRES_ACCOUNT}) or run this as an unprivileged user`,
    );
  }
}

/**
 * `initdb` of a new cluster in `<runDir>/postgres` (password authentication, superuser `temporal`), and how to serve
 * it on `port`. Durability settings are the test's, not production's: `fsync=off` loses data only when the machine
 * itself crashes, never when PostgreSQL or a client is killed or restarted, which is what the fault run does.
 */
export async function initPostgres(runDir: string, port: number): Promise<PostgresCluster> {
  const { version, bin } = await postgresBin();
  const user = await runAs();
  const home = path.join(runDir, 'postgres');
  const dataDir = path.join(home, 'data');
  const password = randomBytes(18).toString('base64url');
  const passwordFile = path.join(home, 'password');
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) {
    // The account must reach its folder through the run's folder, which mkdtemp made private to us.
    await fs.chmod(runDir, 0o711);
    await fs.chown(home, user.uid, user.gid);
    await fs.chown(passwordFile, user.uid, user.gid);
  }
  const initdbArgs = ['-D', dataDir, '-U', 'temporal', `--pwfile=${passwordFile}`, '--auth=scram-sha-256'];
  try {
    await execFileAsync(path.join(bin, 'initdb'), [...initdbArgs, '-E', 'UTF8', '--locale=C'], {
      ...(user ?? {}),
      cwd: home,
    });
  } catch (err) {
    const detail = (err as { stderr?: string }).stderr?.trim() ?? (err as Error).message;
    throw new PostgresSetupError(`initdb failed: ${detail}`);
  }
  await fs.rm(passwordFile);
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: home,
    // Four Temporal services with up to 30 connections each, and the SQL tool.
    max_connections: '250',
    fsync: 'off',
    full_page_writes: 'off',
  };
  return {
    version,
    port,
    user: 'temporal',
    password,
    dataDir,
    spec: {
      name: 'postgresql',
      command: path.join(bin, 'postgres'),
      args: ['-D', dataDir, '-p', String(port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
      env: {},
      cwd: home,
      ...(user ? { user } : {}),
      readyTimeoutMs: 30_000,
      ready: async () => {
        await execFileAsync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'temporal']);
      },
    },
  };
}

/** A throwaway PostgreSQL in a folder of its own: the tests' database and the audit bench's. */
export interface ThrowawayPostgres {
  /** `postgres://temporal:…@127.0.0.1:<port>/postgres`. */
  url: string;
  stop(): Promise<void>;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const runDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-postgres-'));
  // PostgreSQL cannot be asked for "any" port.
  const port = await freePort();
  const cluster = await initPostgres(runDir, port);
  const child = spawn(cluster.spec.command, cluster.spec.args, {
    cwd: cluster.spec.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(cluster.spec.user ? { uid: cluster.spec.user.uid, gid: cluster.spec.user.gid } : {}),
  });
  const log = outputTail(child, 10);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
    await fs.rm(runDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + cluster.spec.readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new PostgresSetupError(`PostgreSQL exited (code ${child.exitCode}) before it was ready:\n${log()}`);
    }
    if (
      await cluster.spec.ready().then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new PostgresSetupError('PostgreSQL was not ready within its start timeout');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `postgres://${cluster.user}:${cluster.password}@127.0.0.1:${port}/postgres`, stop };
}
