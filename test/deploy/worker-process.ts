import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/eligibility.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A real `eligibility worker` process, as a container runs it. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed so far (for failure messages). */
  output(): string;
  /** Resolves once it prints that it polls its task queue. */
  ready: Promise<void>;
  /** Resolves with its exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
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
  return { child, output: () => output, ready, exited };
}
