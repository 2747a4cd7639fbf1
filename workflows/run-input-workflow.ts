import { setHandler } from '@temporalio/workflow';
import { cancelSignal } from './messages.js';
import { RunInputs } from './run-inputs.js';
import { resolveTiming } from './timing.js';
import type { RunInputWorkflowInput, RunInputWorkflowResult } from './types.js';

/**
 * A run that asks for input after its verification has closed: the webhook receiver starts this (`run-<flowRunId>`)
 * so the event is not dropped; it answers the same `supplyRunInput` update as a verification does.
 */
export async function runInputWorkflow(input: RunInputWorkflowInput): Promise<RunInputWorkflowResult> {
  let cancelled = false;
  setHandler(cancelSignal, () => {
    cancelled = true;
  });
  const runs = new RunInputs(undefined, [input.flowRunId]);
  const timing = resolveTiming(input.timing);
  const waited = await runs.waitForInput(0, timing.inputDeadlineSeconds, () => cancelled);
  return {
    outcome: waited === 'stopped' ? 'cancelled' : waited,
    runs: runs.summaries,
    ...(runs.lastError ? { lastError: runs.lastError } : {}),
  };
}
