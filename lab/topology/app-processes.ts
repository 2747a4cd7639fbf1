import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { childrenOf, commandLine } from '../../testing/worker-process.js';
import { IN_PROCESS } from '../../workers/relaunch.js';
import type { ProcessSpec } from './supervised-process.js';

const execFileAsync = promisify(execFile);

const BIN = fileURLToPath(new URL('../../bin/eligibility.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The roles of the image this topology runs, each as `node bin/eligibility.js <role>`, as a container runs it. */
export type AppRole = 'sandbox' | 'worker' | 'receiver' | 'intake';

/** Resolves once `url` answers HTTP at all (any status): the process listens, and it connected to Temporal first. */
async function answers(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await response.body?.cancel();
}

/** `eligibility <role>` as a supervised process, ready once it serves `readyUrl` (a worker: once it polls). */
export function roleSpec(name: string, role: AppRole, env: Record<string, string>, readyUrl?: string): ProcessSpec {
  const ready =
    role === 'worker'
      ? (p: { output(): string }) =>
          p.output().includes('Worker polling task queue')
            ? Promise.resolve()
            : Promise.reject(new Error('not polling yet'))
      : () => answers(readyUrl!);
  return {
    name,
    command: process.execPath,
    args: [BIN, role],
    cwd: ROOT,
    env,
    readyTimeoutMs: 120_000,
    ready,
    // `eligibility worker` restarts itself with its memory limits (workers/relaunch.ts): the child runs the workflows
    // and activities, and killing it is the crash; the launcher then exits after it.
    ...(role === 'worker'
      ? { killTarget: (pid: number) => childrenOf(pid).find((child) => commandLine(child).includes(IN_PROCESS)) }
      : {}),
  };
}

/** Runs `eligibility <args>` once (a CLI command such as `webhooks register`) and returns its output. */
export async function runCli(env: Record<string, string>, args: readonly string[]): Promise<string> {
  const { stdout, stderr } = await execFileAsync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  return `${stdout}${stderr}`;
}

/**
 * The production build (`npm run build`: dist/ and dist/workflow-bundle.js), which the roles run as the image does;
 * a compiled worker loads the prebuilt bundle, so one restarted after a kill polls within seconds.
 */
export async function buildCompiled(): Promise<void> {
  await execFileAsync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: ROOT });
}
