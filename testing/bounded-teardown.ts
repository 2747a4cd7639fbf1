import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits for one step of a suite's teardown at most `ms`, then warns with its name and goes on: a teardown step that
 * hangs (a suite's after-all hook has waited over a minute beside a loaded CI run, cause not found) must not fail the
 * run, and the warning names the step for the next look. Mocha's `exit` ends what is left.
 */
export async function boundedTeardown(step: string, work: Promise<unknown>, ms = 15_000): Promise<void> {
  const settled = work.then(() => true);
  settled.catch(() => undefined); // a failure after the wait is not the suite's to report
  const wait = new AbortController();
  const timedOut = sleep(ms, false, { signal: wait.signal }).catch(() => false);
  const done = await Promise.race([settled, timedOut]).finally(() => wait.abort());
  if (!done) console.warn(`teardown: ${step} had not finished ${ms / 1000} s after it began; left running`);
}
