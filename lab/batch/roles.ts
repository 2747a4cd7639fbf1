import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** A role of a build (`node <bin> <role>`) in a child process, its output kept for the report. */
export interface RoleProcess {
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node <bin> <role>` with `env` added, resolving once `ready()` holds (checked every 250 ms, up to 2 min). */
export async function startRole(
  bin: string,
  role: string,
  env: Record<string, string>,
  ready: (output: string) => boolean | Promise<boolean>,
): Promise<RoleProcess> {
  const child = spawn(process.execPath, [bin, role], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(20_000).then(() => child.kill('SIGKILL'))]);
  };
  const deadline = Date.now() + 120_000;
  while (!(await ready(output))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${role} of ${bin} did not get ready:\n${output.slice(-3000)}`);
    }
    await sleep(250);
  }
  return { output: () => output, stop };
}

/** Ready once `url` answers 200. */
export const answers = (url: string) => async () => {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
};
