import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { NoopActivities } from '../one-activity-workflow.js';

export const wakeSignal = defineSignal('wake');

const eager = proxyActivities<NoopActivities>({ startToCloseTimeout: '10 seconds' });
const queued = proxyActivities<NoopActivities>({ startToCloseTimeout: '10 seconds', allowEagerDispatch: false });

/**
 * The floor of `discovery-<id>`'s path in `npm run bench:latency-floor`: a wait that a signal ends (with a timer, as
 * its poll), then one activity that does nothing, handed to the worker with the workflow task's completion (`eager`)
 * or through the task queue, as a governed call must be.
 */
export async function wokenWorkflow(dispatch: 'eager' | 'queued'): Promise<void> {
  let woken = false;
  setHandler(wakeSignal, () => void (woken = true));
  await condition(() => woken, '1 hour');
  await (dispatch === 'eager' ? eager : queued).noop();
}
