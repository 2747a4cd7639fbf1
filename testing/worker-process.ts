import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IN_PROCESS } from '../workers/relaunch.js';
import { CLI_ARGV, compiledEnv } from './compiled.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A real `eligibility worker` process, as a container runs it. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed so far (for failure messages). */
  output(): string;
  /** Resolves once it prints that it polls its task queue. */
  ready: Promise<void>;
  /** Resolves with its exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * The process `eligibility worker` restarted itself as, with its memory limits (workers/relaunch.ts): the one that
   * runs the workflows and activities, while `child` only waits for it. Undefined before it starts or once it is gone.
   */
  worker(): number | undefined;
}

/** State and parent of a process (`/proc/<pid>/stat`), undefined once it is gone. */
export function processStat(pid: number): { state: string; parent: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parent] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: state!, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid` (not every kernel has /proc/<pid>/task/<pid>/children). */
export const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && processStat(Number(entry))?.parent === pid)
    .map(Number);

/** Running, as opposed to gone or exited and not yet reaped (a zombie). */
export const alive = (pid: number) => ![undefined, 'Z', 'X'].includes(processStat(pid)?.state);

/** The arguments a process was started with (empty once it is gone). */
export const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [...CLI_ARGV, 'worker'], {
    cwd: ROOT,
    env: { ...process.env, ...compiledEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Worker polling task queue')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`the worker exited (${code}) before polling:\n${output}`)));
  });
  // `ready` may be left unawaited once the test has failed elsewhere.
  ready.catch(() => undefined);
  const worker = () => childrenOf(child.pid!).find((pid) => commandLine(pid).includes(IN_PROCESS));
  return { child, output: () => output, ready, exited, worker };
}
