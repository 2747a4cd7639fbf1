import { setTimeout as sleep } from 'node:timers/promises';
import { temporalFailureKind } from '../temporal/errors.js';

/**
 * Repeats `call` while Temporal is unavailable, with a doubling delay (0.5 s up to 8 s), for at most `budgetMs`; any
 * other failure, or the budget spent, is thrown. Safe only for idempotent calls (the batch's derived ids make them so).
 */
export async function retryUnavailable<T>(call: () => Promise<T>, budgetMs: number): Promise<T> {
  const firstAt = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (err) {
      const delayMs = Math.min(8000, 500 * 2 ** (attempt - 1));
      if (temporalFailureKind(err) !== 'unavailable' || Date.now() + delayMs - firstAt > budgetMs) throw err;
      await sleep(delayMs);
    }
  }
}
