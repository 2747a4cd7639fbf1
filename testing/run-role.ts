import { spawn } from 'node:child_process';

/** A long-running `eligibility <role>` process, started and seen ready. */
export interface RunningRole {
  output(): string;
  /** SIGTERM, then its exit code once it has drained and stopped. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node <argv>` and resolves once its output matches `ready`; rejects (and kills it) when it exits first or is
 * not ready within 60 s, with what it printed.
 */
export async function runRole(argv: string[], options: { env: Record<string, string>; cwd: string; ready: RegExp }) {
  const child = spawn(process.execPath, argv, { cwd: options.cwd, env: { ...process.env, ...options.env } });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    child.kill('SIGTERM');
    return exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (options.ready.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) =>
        reject(new Error(`${argv.join(' ')} exited (${code}) before it was ready:\n${output}`)),
      );
      setTimeout(() => reject(new Error(`${argv.join(' ')} not ready after 60 s:\n${output}`)), 60_000).unref();
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { output: () => output, stop } satisfies RunningRole;
}
