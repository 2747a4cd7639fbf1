import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

// The command from the TypeScript sources, as the tests run it (no build needed).
const CLI = ['--import', 'tsx', fileURLToPath(new URL('../../apps/cli/main.ts', import.meta.url))];
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** An `eligibility` CLI command running as a child process, its output kept to wait for a line or to explain. */
export interface CliChild {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  kill(): Promise<void>;
}

export function startCli(env: Record<string, string>, args: string[]): CliChild {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async waitFor(pattern, timeoutMs = 300_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null)
          throw new Error(`the CLI exited (${child.exitCode}) before ${pattern}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`);
        await sleep(100);
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
