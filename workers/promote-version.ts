import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { describeDeployment, setCurrentVersion } from '../src/temporal/deployments.js';

const POLL_MS = 500;

/**
 * `WORKER_VERSION_ROLLOUT=always|first`: makes this worker's version the deployment's current one once the server
 * knows it (a version exists from its first poll), so new workflows start on it while pinned ones finish on theirs.
 * With `onlyIfNoneCurrent` (a first install), a deployment that already has a current version is left as it is: the
 * operator ramps and promotes the new one. Resolves true when this version is current.
 */
export async function promoteWhenPolling(
  client: Client,
  deployment: { name: string; buildId: string },
  opts: { signal?: AbortSignal; timeoutMs?: number; log: (line: string) => void; onlyIfNoneCurrent?: boolean },
): Promise<boolean> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const view = await describeDeployment(client, deployment.name).catch(() => undefined);
    if (view?.current === deployment.buildId) return true;
    if (view?.versions.some((v) => v.buildId === deployment.buildId)) {
      if (opts.onlyIfNoneCurrent && view.current) {
        opts.log(
          `Worker version ${deployment.buildId} waits for \`eligibility deploy ramp|promote\` (current: ${view.current})`,
        );
        return false;
      }
      try {
        await setCurrentVersion(client, deployment.name, deployment.buildId, `worker ${deployment.buildId}`);
        opts.log(`Worker version ${deployment.buildId} is now current in deployment ${deployment.name}`);
        return true;
      } catch (err) {
        // The server may still be registering the version's task queues: asked again below.
        if (Date.now() > deadline) throw err;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`worker version ${deployment.buildId} did not appear in deployment ${deployment.name}`);
    }
    await sleep(POLL_MS, undefined, { signal: opts.signal }).catch(() => undefined);
    if (opts.signal?.aborted) return false;
  }
}
