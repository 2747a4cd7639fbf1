import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `done()` or the deadline, looking every `stepMs`; true when done. */
export async function until(done: () => boolean | Promise<boolean>, deadline: number, stepMs = 250): Promise<boolean> {
  while (Date.now() < deadline) {
    if (await done()) return true;
    await sleep(stepMs);
  }
  return done();
}
