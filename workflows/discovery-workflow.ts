import { setHandler } from '@temporalio/workflow';
import { DiscoveryWatch, summarizeDiscovery } from './discovery-wait.js';
import { cancelSignal } from './messages.js';
import { resolveTiming } from './timing.js';
import type { DiscoveryWorkflowInput, DiscoveryWorkflowResult } from './types.js';

/**
 * The wait for one discovery on its own, for discoveries that arrive without a verification: the webhook receiver
 * signal-with-starts it (`discovery-<id>`), so its history shows when the coverage lookup finished and what it found.
 */
export async function discoveryWorkflow(input: DiscoveryWorkflowInput): Promise<DiscoveryWorkflowResult> {
  let cancelled = false;
  setHandler(cancelSignal, () => {
    cancelled = true;
  });
  const watch = new DiscoveryWatch(input.discoveryId);
  const waited = await watch.wait(resolveTiming(input.timing), () => cancelled);
  if (waited.kind === 'stopped') return { outcome: 'cancelled' };
  const discovery = summarizeDiscovery(waited.discovery);
  return { outcome: waited.kind === 'complete' ? 'complete' : 'timed-out', discovery };
}
