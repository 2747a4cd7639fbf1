import { setHandler } from '@temporalio/workflow';
import { simpleDetails } from './current-details.js';
import { DiscoveryWatch, summarizeDiscovery } from './discovery-wait.js';
import { cancelSignal } from '../shared/messages.js';
import { Progress } from './progress.js';
import { code } from '../shared/ui-text.js';
import { resolveTiming } from '../shared/timing.js';
import type { DiscoveryWorkflowInput, DiscoveryWorkflowResult } from '../shared/types.js';

/**
 * The wait for one discovery on its own, for discoveries that arrive without a verification: the webhook receiver
 * signal-with-starts it (`discovery-<id>`), so its history shows when the coverage lookup finished and what it found.
 */
export async function discoveryWorkflow(input: DiscoveryWorkflowInput): Promise<DiscoveryWorkflowResult> {
  let cancelled = false;
  let heading = `Awaiting discovery ${code(input.discoveryId)}`;
  setHandler(cancelSignal, () => {
    cancelled = true;
  });
  const progress = new Progress((step) => simpleDetails(heading, step));
  const watch = new DiscoveryWatch(input.discoveryId, undefined, progress);
  const waited = await watch.wait(resolveTiming(input.timing), () => cancelled);
  const result: DiscoveryWorkflowResult =
    waited.kind === 'stopped'
      ? { outcome: 'cancelled' }
      : {
          outcome: waited.kind === 'complete' ? 'complete' : 'timed-out',
          discovery: summarizeDiscovery(waited.discovery),
        };
  const found =
    result.outcome === 'complete' ? (result.discovery?.successful ? ': coverage found' : ': no coverage') : '';
  heading = `Discovery ${code(input.discoveryId)} ${result.outcome}${found}`;
  progress.at(undefined);
  return result;
}
