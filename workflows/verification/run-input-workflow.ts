import { setHandler } from '@temporalio/workflow';
import { runInputDetails } from './current-details.js';
import { cancelSignal } from './verification.js';
import { Progress } from './progress.js';
import { RunInputs } from './run-inputs.js';
import { resolveTiming } from '../shared/timing.js';
import type { RunInputWorkflowInput, RunInputWorkflowResult } from './verification.js';

/**
 * A run that asks for input after its verification has closed: the webhook receiver starts this (`run-<flowRunId>`)
 * so the event is not dropped; it answers the same `supplyRunInput` update as a verification does.
 */
export async function runInputWorkflow(input: RunInputWorkflowInput): Promise<RunInputWorkflowResult> {
  let cancelled = false;
  const ended: { outcome?: RunInputWorkflowResult['outcome'] } = {};
  setHandler(cancelSignal, () => {
    cancelled = true;
  });
  const progress: Progress = new Progress((step): string =>
    runInputDetails(
      { outcome: ended.outcome, pendingRuns: runs.pending, runs: runs.summaries, lastError: runs.lastError },
      step,
    ),
  );
  const runs = new RunInputs(undefined, [input.flowRunId], undefined, progress);
  runs.add(input.flowRunId, input.requested);
  const timing = resolveTiming(input.timing);
  const waited = await runs.waitForInput(0, timing.inputDeadlineSeconds, () => cancelled);
  const outcome = waited === 'stopped' ? 'cancelled' : waited;
  ended.outcome = outcome;
  progress.at(undefined);
  return {
    outcome,
    runs: runs.summaries,
    ...(runs.lastError ? { lastError: runs.lastError } : {}),
  };
}
