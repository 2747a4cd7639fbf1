import {
  condition,
  makeContinueAsNewFunc,
  patched,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { GovernorActivities } from './activities.js';
import {
  DEFAULT_GOVERNOR_SETTINGS,
  governorObserve,
  governorStatus,
  initialGovernorState,
  LEGACY_GOVERNOR_SETTINGS,
  FEW_CALLS_GOVERNOR_SETTINGS_BEFORE,
  HELD_RATE_GOVERNOR_SETTINGS_BEFORE,
  STEP_GOVERNOR_SETTINGS_BEFORE,
} from './governor-aimd.js';
import { governorStatusQuery, outcomeReportSignal } from '../shared/governor-messages.js';
import { newVersionIsCurrent, ON_CURRENT_VERSION } from '../shared/versioning.js';
import type { GovernorInput, GovernorSettings, OutcomeReport } from '../shared/governor-types.js';

/*
 * The governor's rule sets, one patch each, chosen when a governor starts. Legacy: it and its old path go in the first version after the first versioned build has drained (decision 35).
 */

/**
 * Generation 2 of the rules (`governor-aimd.ts`). A governor started before it keeps generation 1, so its history
 * replays; its next continue-as-new starts a run on the newest generation, carrying its state.
 */
export const GOVERNOR_PLATEAU_PATCH = 'governor-plateau';
/** Generation 3: demand read over the whole step at a rate, a refused bunch read as a bunch. */
export const GOVERNOR_STEPS_PATCH = 'governor-steps';
/** Generation 4: "over a fifth of the calls refused" read only from a report of 10 calls or more. */
export const GOVERNOR_FEW_CALLS_PATCH = 'governor-few-calls';
/** Generation 5: a probe's 429 read at the rate it raised from when that rate held for seconds. */
export const GOVERNOR_HELD_RATE_PATCH = 'governor-held-rate';

// Local: a dispatched activity would itself wait behind the rate limit it is setting, and count against it.
const { applyQueueRate } = proxyLocalActivities<GovernorActivities>({
  startToCloseTimeout: '10 seconds',
  // Temporal unreachable: retried until it is back; the queue keeps its last rate meanwhile.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * The traffic governor of one task queue (DESIGN §8): the workers' aggregated call outcomes in, the queue's activity
 * dispatch rate out (Temporal's task-queue config, which overrides what workers send). Its id is fixed per queue, so
 * however many workers signal-with-start it, one instance decides; its state is in its history, so it survives
 * worker restarts. It waits with no timer (a timer is a billed action): only reports wake it, and it continues as
 * new, carrying its state, before its history grows long.
 */
export async function governorWorkflow(input: GovernorInput): Promise<never> {
  const settings = { ...DEFAULT_GOVERNOR_SETTINGS, ...generationSettings(), ...input.settings };
  let state = input.state ?? initialGovernorState(input.maxRps, settings);
  let applied = input.appliedRps;
  const inbox: OutcomeReport[] = [];
  setHandler(outcomeReportSignal, (report) => {
    inbox.push(report);
  });
  setHandler(governorStatusQuery, () => governorStatus(input.taskQueue, state, applied, Date.now()));

  for (;;) {
    for (const report of inbox.splice(0)) state = governorObserve(state, report, Date.now(), settings);
    if (applied !== state.rps) {
      const reason = state.lastChange?.reason ?? 'governor started';
      await applyQueueRate(input.taskQueue, state.rps, reason);
      applied = state.rps;
      // Reports that arrived while the rate was being applied are taken first.
      if (inbox.length > 0) continue;
    }
    const info = workflowInfo();
    if (
      info.historyLength >= settings.continueAsNewAfterEvents ||
      info.continueAsNewSuggested ||
      newVersionIsCurrent()
    ) {
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

/**
 * The rules of the generation this governor started on: the first patch it has no marker for says which. The
 * patches are asked in the order they were added, so a history replays the same questions it recorded.
 */
function generationSettings(): Partial<GovernorSettings> {
  if (!patched(GOVERNOR_PLATEAU_PATCH)) return LEGACY_GOVERNOR_SETTINGS;
  if (!patched(GOVERNOR_STEPS_PATCH)) return STEP_GOVERNOR_SETTINGS_BEFORE;
  if (!patched(GOVERNOR_FEW_CALLS_PATCH)) return FEW_CALLS_GOVERNOR_SETTINGS_BEFORE;
  if (!patched(GOVERNOR_HELD_RATE_PATCH)) return HELD_RATE_GOVERNOR_SETTINGS_BEFORE;
  return {};
}
