import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EligibilityClient, NetworkError, RateLimitError } from '../../src/client/index.js';
import type { ServiceConfig } from '../../src/config.js';
import type { VerificationRequestV2 } from '../../src/contract/index.js';
import { forEachLimited } from '../bench-stack.js';

/** The peer of the table: bounded concurrency, a fixed 1 s wait after a 429, no other politeness. */
const CONCURRENCY = 50;
const RETRY_MS = 1000;

async function untilServed<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (err) {
      // A 429, or no answer in time on a loaded machine: the same fixed wait, as a simple script would.
      if (!(err instanceof RateLimitError) && !(err instanceof NetworkError)) throw err;
      await sleep(RETRY_MS);
    }
  }
}

/**
 * A direct script doing what a verification does on its happy path, with no Temporal: look the payer up, create the
 * verification (one idempotency key per request, reused by its retries). Runs `count` of them, `CONCURRENCY` at once.
 */
export async function runNaivePeer(
  service: ServiceConfig,
  count: number,
  request: (i: number) => VerificationRequestV2,
) {
  const client = new EligibilityClient(service);
  await forEachLimited(count, CONCURRENCY, async (i) => {
    const body = request(i);
    const idempotencyKey = randomUUID();
    await untilServed(() => client.getPayer(body.payerId));
    await untilServed(() => client.createVerificationV2(body, { idempotencyKey }));
  });
}
