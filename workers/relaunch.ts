import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import { childEnvironment, type WorkerConfig } from '../src/config.js';
import { checkCacheFitsHeap, heapFlags } from './heap-budget.js';

/** The argument the relaunched worker gets: run here, as started. */
export const IN_PROCESS = '--in-process';

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Runs this command again, with `IN_PROCESS`, in a child process started with the worker's memory settings, and
 * resolves with the exit code to leave with: the child's, or 128 + the signal that ended it.
 *
 * V8's heap limits and glibc's arena count are fixed when a process starts, and however a worker is started (by hand,
 * `npm run worker`, the image, compose, a process manager) nobody passes them: so the worker starts itself once more,
 * with them. This process then only waits, forwarding SIGINT and SIGTERM.
 */
export async function relaunchWithMemoryLimits(worker: WorkerConfig): Promise<number> {
  checkCacheFitsHeap(worker);
  const child = spawn(
    process.execPath,
    // execArgv keeps how this process was started (tsx's loader under `tsx` / `npm run worker`); the heap flags come
    // after any of the user's, so the limit that was checked is the one in effect.
    [...process.execArgv, ...heapFlags(worker), ...process.argv.slice(1), IN_PROCESS],
    {
      env: childEnvironment({ MALLOC_ARENA_MAX: String(worker.mallocArenaMax) }),
      // The IPC channel closes when this process dies, however it dies: the child then stops (`untilStopped`).
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    },
  );
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  try {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    return code ?? 128 + (signal ? constants.signals[signal] : 0);
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward);
  }
}

/**
 * Aborted on SIGINT or SIGTERM, or when the process that launched this one is gone (its IPC channel closed): a
 * worker then drains and exits instead of polling on as an orphan. Every signal is listened to, not only the first: a
 * Ctrl-C reaches both processes and is forwarded too, and a repeat finding no listener would kill the drain.
 */
export function untilStopped(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  for (const signal of FORWARDED) process.on(signal, stop);
  process.once('disconnect', stop);
  // Listening is all it is for: the channel must not keep the process alive once the worker has stopped.
  process.channel?.unref();
  return controller.signal;
}
