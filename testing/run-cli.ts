import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testCodecEnv } from './codec.js';
import { CLI_ARGV, compiledEnv } from './compiled.js';

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
