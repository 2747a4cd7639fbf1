import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { describeDeployment, runningOn } from '../src/temporal/deployments.js';

/**
 * Resolves once this worker's version is drained: it is neither current nor ramping (a newer version took new
 * workflows) and no open workflow is pinned to it any more, so nothing will ever need its workers again
 * (`WORKER_EXIT_WHEN_DRAINED`). A version that was never current or ramping is not drained: it is waiting for its turn.
 */
export async function untilDrained(
  client: Client,
  deployment: { name: string; buildId: string },
  opts: { intervalMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  for (;;) {
    const view = await describeDeployment(client, deployment.name).catch(() => undefined);
    const state = view?.versions.find((v) => v.buildId === deployment.buildId)?.state;
    const retired = state === 'draining' || state === 'drained';
    if (retired && (await runningOn(client, deployment.name, deployment.buildId).catch(() => 1)) === 0) return;
    await sleep(opts.intervalMs ?? 30_000, undefined, { signal: opts.signal });
  }
}
