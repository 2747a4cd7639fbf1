import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testCodecEnv } from './codec.js';
import { CLI_ARGV, compiledEnv } from './compiled.js';
// Imported, not `import()`ed: a dynamic import would load a second copy of the product's modules beside the suite's.
import { runCommand } from '../apps/cli/run.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export { CLI_ARGV };

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `eligibility` command in a child process, as a person would, with `env` added to this one's and the test
 * run's codec keys (so it reads what the suite's clients and workers write).
 */
export function runCli(args: readonly string[], env: Record<string, string> = {}, input?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [...CLI_ARGV, ...args],
      { cwd: ROOT, env: { ...process.env, ...compiledEnv(), ...testCodecEnv(), ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error?.code;
        // A number is the command's exit code; anything else (not started, killed by the timeout) is the test's error.
        if (error && typeof code !== 'number') reject(new Error(`eligibility ${args.join(' ')}: ${error.message}`));
        else resolve({ code: typeof code === 'number' ? code : 0, stdout, stderr });
      },
    );
    // What a person would pipe in (a password); otherwise stdin is closed at once.
    child.stdin?.end(input ?? '');
  });
}

/** The non-empty lines of a stream's output. */
export const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

let running: Promise<unknown> = Promise.resolve();

/**
 * Runs the `eligibility` program in this process (`apps/cli/run.ts`, what `bin/eligibility.js` runs) for a test of what
 * it says and returns rather than of the process itself: no process start (some 0.8 s of CPU each). `env` is set for
 * the run and put back after; stdout and stderr are captured. One run at a time: they share the process.
 */
export function runCliInProcess(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const run = running.then(() => runOnce(args, env));
  running = run.catch(() => undefined);
  return run;
}

async function runOnce(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  const set = { ...testCodecEnv(), ...env };
  const saved = Object.fromEntries(Object.keys(set).map((name) => [name, process.env[name]]));
  const out = { stdout: '', stderr: '' };
  // Each stream's own `write` if something set one, else none (its prototype's): put back as it was.
  const own = {
    stdout: Object.getOwnPropertyDescriptor(process.stdout, 'write'),
    stderr: Object.getOwnPropertyDescriptor(process.stderr, 'write'),
  };
  const capture = (stream: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      out[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
      return true;
    }) as typeof process.stdout.write;
  Object.assign(process.env, set);
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  try {
    const code = await runCommand(['node', 'eligibility', ...args]);
    return { code, ...out };
  } finally {
    for (const stream of ['stdout', 'stderr'] as const) {
      const descriptor = own[stream];
      if (descriptor) Object.defineProperty(process[stream], 'write', descriptor);
      else delete (process[stream] as { write?: unknown }).write;
    }
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
