/**
 * Schemathesis (`--checks all`) against the intake API's own OpenAPI document, on a whole `eligibility dev` stack run
 * from the sources on ports of its own (PORT_BASE … PORT_BASE+9) and a data directory thrown away after. Installs
 * schemathesis into a venv the first time (Python 3 and PyPI). Not part of `npm test`; lab/README.md has the figures.
 *
 *   cd lab && npm run schemathesis [-- --seed 61 --port-base 18200 --out /tmp/schemathesis]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const VERSION = '4.32.5';
const root = fileURLToPath(new URL('../../', import.meta.url));

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '61' },
    'port-base': { type: 'string', default: '18200' },
    out: { type: 'string', default: path.join(os.tmpdir(), 'schemathesis') },
    venv: { type: 'string', default: path.join(root, '.data/lab-tools', `schemathesis-${VERSION}`) },
  },
});

/** Runs a command to its end; rejects naming it when it fails. */
function runCommand(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** The venv's schemathesis, made the first time (a venv is the project's, never the system's Python). */
async function schemathesis(venv: string): Promise<string> {
  const bin = path.join(venv, 'bin', 'schemathesis');
  if (existsSync(bin)) return bin;
  console.log(`Installing schemathesis ${VERSION} into ${venv}`);
  if ((await runCommand('python3', ['-m', 'venv', venv])) !== 0) throw new Error('python3 -m venv failed');
  const pip = path.join(venv, 'bin', 'pip');
  if ((await runCommand(pip, ['install', '--quiet', `schemathesis==${VERSION}`])) !== 0)
    throw new Error('pip install failed');
  return bin;
}

/** Each port of the dev stack, from the base up: none is the default, so a running `npm start` is not disturbed. */
function stackEnv(base: number, dataDir: string, key: string): NodeJS.ProcessEnv {
  const port = (n: number) => String(base + n);
  return {
    ...process.env,
    TEMPORAL_ADDRESS: `127.0.0.1:${port(0)}`,
    TEMPORAL_UI_PORT: port(1),
    SANDBOX_PORT: port(2),
    WORKER_HTTP_PORT: port(3),
    WORKER_CORE_METRICS_PORT: port(4),
    WEBHOOK_PORT: port(5),
    INTAKE_PORT: port(6),
    CONSOLE_PORT: port(7),
    DEV_DATABASE_PORT: port(8),
    CODEC_SERVER_PORT: port(9),
    DEV_DATA_DIR: dataDir,
    CODEC_KEY_FILE: path.join(dataDir, 'codec-keys'),
    PATIENT_ID_KEY_FILE: path.join(dataDir, 'patient-id-key'),
    INTAKE_API_KEY: key,
    LOG_LEVEL: 'warn',
  };
}

async function ready(url: string, stack: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (stack.exitCode !== null) throw new Error(`the stack stopped (exit ${stack.exitCode})`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(1000);
  }
  throw new Error(`${url} not ready within ${deadlineMs / 1000} s`);
}

/** Stops the stack's process group: SIGINT (it closes its servers), then SIGKILL if it lingers. */
async function stop(stack: ChildProcess): Promise<void> {
  if (stack.exitCode !== null || stack.pid === undefined) return;
  const exited = new Promise((resolve) => stack.once('exit', resolve));
  process.kill(-stack.pid, 'SIGINT');
  if (await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)])) return;
  process.kill(-stack.pid, 'SIGKILL');
  await exited;
}

async function run(): Promise<number> {
  const bin = await schemathesis(values.venv);
  const base = Number(values['port-base']);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'schemathesis-stack-'));
  await fs.mkdir(values.out, { recursive: true });
  const key = randomBytes(24).toString('base64url');
  const intake = `http://127.0.0.1:${base + 6}`;
  const log = createWriteStream(path.join(values.out, 'stack.log'));
  const stack = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/main.ts', 'dev'], {
    cwd: root,
    env: stackEnv(base, dataDir, key),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stack.stdout.pipe(log);
  stack.stderr.pipe(log);
  try {
    await ready(`${intake}/readyz`, stack, 240_000);
    console.log(`Stack ready (intake API ${intake}); its output in ${path.join(values.out, 'stack.log')}`);
    // One worker: schemathesis's coverage phase in threads trips CPython 3.11's AST recursion check.
    return await runCommand(bin, [
      'run',
      `${intake}/docs/openapi.json`,
      '--url',
      intake,
      '--checks',
      'all',
      '--header',
      `x-api-key: ${key}`,
      '--seed',
      values.seed,
      '--workers',
      '1',
      '--generation-database',
      'none',
      '--report',
      'json',
      '--report-json-path',
      path.join(values.out, 'report.json'),
    ]);
  } finally {
    await stop(stack);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

run()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
