import { condition, makeContinueAsNewFunc, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { GovernorActivities } from './activities.js';
import { governorStatus } from './governor-status.js';
import { governorStatusQuery, outcomeReportSignal } from './governor.js';
import { ON_CURRENT_VERSION, shouldContinueAsNew } from '../shared/continue-as-new.js';
import type { GovernorInput, GovernorState, OutcomeReport } from './governor.js';

/** Continue as new after this many history events, carrying the state: a run's history stays small. */
const CONTINUE_AS_NEW_AFTER_EVENTS = 2000;

// Local: a dispatched activity would itself wait behind the rate limit it is setting, and count against it.
const { decideRate, applyQueueRate } = proxyLocalActivities<GovernorActivities>({
  startToCloseTimeout: '10 seconds',
  // Temporal unreachable: retried until it is back; the queue keeps its last rate meanwhile.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * The traffic governor of one task queue (docs/developing/traffic.md): the workers' aggregated call outcomes in, the
 * queue's activity dispatch rate out (Temporal's task-queue config, which overrides what workers send). Its id is fixed
 * per queue, so however many workers signal-with-start it, one instance decides; its state is in its history, so it
 * survives worker restarts. The rules run in `decideRate`, whose result is recorded: a rule change needs no new
 * version. It waits with no timer (a timer is a billed action): only reports wake it, and it continues as new, carrying
 * its state, before its history grows long or when the deployment's current version changes.
 */
export async function governorWorkflow(input: GovernorInput): Promise<never> {
  let state: GovernorState | undefined = input.state;
  let applied = input.appliedRps;
  const inbox: OutcomeReport[] = [];
  setHandler(outcomeReportSignal, (report) => {
    inbox.push(report);
  });
  setHandler(governorStatusQuery, () => governorStatus(input.taskQueue, input.maxRps, state, applied, Date.now()));

  for (;;) {
    if (state === undefined || inbox.length > 0) {
      const reports = inbox.splice(0);
      state = await decideRate({ state, maxRps: input.maxRps, reports, nowMs: Date.now(), settings: input.settings });
    }
    if (applied !== state.rps) {
      const reason = state.lastChange?.reason ?? 'governor started';
      await applyQueueRate(input.taskQueue, state.rps, reason);
      applied = state.rps;
    }
    // Reports that arrived while the rules ran or the rate was applied are taken first.
    if (inbox.length > 0) continue;
    if (shouldContinueAsNew(input.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_AFTER_EVENTS)) {
      // Signal handlers only queue reports, so nothing is in flight; reports that arrive meanwhile fail this task and
      // are taken in its retry before the continue-as-new is accepted.
      await makeContinueAsNewFunc<typeof governorWorkflow>(ON_CURRENT_VERSION)({
        ...input,
        maxRps: state.maxRps,
        state,
        appliedRps: applied,
      });
    }
    await condition(() => inbox.length > 0);
  }
}
