import { makeContinueAsNewFunc, proxyLocalActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import { refreshActivityOptions } from './refresh-activity-options.js';
import { refreshProgressQuery } from './refresh.js';
import {
  DEFAULT_ACTIVE_WINDOW,
  DEFAULT_REFRESH_POLICY,
  refreshTotals,
  type RefreshCarried,
  type RefreshCounts,
  type RefreshProgress,
  type RefreshWorkflowInput,
} from './refresh.js';
import { ON_CURRENT_VERSION, shouldContinueAsNew } from '../shared/continue-as-new.js';
import type { RefreshActivities } from './activities.js';
import { activeMonths } from './active-months.js';
import { hasStalled, watchAnswers } from './stall-watch.js';

const { askActivePatients, countRefresh } = proxyLocalActivities<RefreshActivities>(refreshActivityOptions);

/**
 * A tenant's monthly refresh (issue 35, decision 0050), started by its Schedule: asks every active patient, a page at
 * a time from visibility, to verify once for this refresh, and follows their verifications like a batch's items. The
 * patients refuse a repeated ask, so a retried page or a lagging visibility never verifies anyone twice. Continues as
 * new as its history grows; the refresh id stays the first run's workflow id.
 */
export async function refreshWorkflow(input: RefreshWorkflowInput): Promise<RefreshProgress> {
  const policy = { ...DEFAULT_REFRESH_POLICY, ...input.policy };
  const state: RefreshCarried = input.carried ?? {
    refreshId: workflowInfo().workflowId,
    months: activeMonths(Date.now(), { ...DEFAULT_ACTIVE_WINDOW, ...input.window }),
    startedAt: Date.now(),
    phase: 'asking',
    asked: 0,
    pages: 0,
  };
  let counts: RefreshCounts | undefined;
  const progress = (): RefreshProgress => ({
    ...state,
    tenant: input.tenant,
    patients: counts?.patients ?? 0,
    ...(counts ? { verifications: counts.verifications } : {}),
  });
  setHandler(refreshProgressQuery, progress);
  const look = async () => (counts = await countRefresh({ tenant: input.tenant, refreshId: state.refreshId }));
  const settle = () => sleep(policy.settleSeconds * 1000);
  /** Asked, not answered yet: patients still to start theirs, and verifications under way. */
  const inFlight = (c: RefreshCounts) => refreshTotals(c.verifications).running + c.patients - c.verifications.total;

  // Asking: pages until visibility shows no active patient without this refresh, twice, a settle apart (it lags).
  let emptyLooks = 0;
  while (state.phase === 'asking') {
    const asked = await askActivePatients({
      tenant: input.tenant,
      taskQueue: workflowInfo().taskQueue,
      refreshId: state.refreshId,
      months: state.months,
      pageSize: policy.pageSize,
    });
    state.asked += asked;
    state.pages++;
    emptyLooks = asked === 0 ? emptyLooks + 1 : 0;
    if (emptyLooks >= 2) state.phase = 'finishing';
    // The pace: the next page waits while the asked ones' verifications are many; a page also waits for visibility to
    // see the patients that just took the refresh, so they are not asked again.
    await settle();
    while (state.phase === 'asking' && inFlight(await look()) >= policy.maxInFlight) await settle();
    // Asking the same patients again and again while none more takes the refresh: they cannot answer (stuck).
    const patients = (counts ?? (await look())).patients;
    state.answered = watchAnswers(state.answered, { at: Date.now(), asked, patients });
    if (hasStalled(state.answered, Date.now(), policy.stalledSeconds * 1000)) {
      state.unanswered = asked;
      state.phase = 'finishing';
    }
    await moveOnIfTime();
  }

  // Finishing: until no verification of the refresh runs and the counts hold still over a settle (a patient without a
  // payer to ask takes the refresh and starts none, so patients and verifications need not match).
  let last = '';
  for (;;) {
    const now = await look();
    const picture = JSON.stringify(now);
    if (refreshTotals(now.verifications).running === 0 && picture === last) break;
    last = picture;
    await settle();
    await moveOnIfTime();
  }
  state.phase = 'done';
  state.finishedAt = Date.now();
  return progress();

  async function moveOnIfTime(): Promise<void> {
    if (!shouldContinueAsNew(policy.continueAfterEvents)) return;
    await makeContinueAsNewFunc<typeof refreshWorkflow>(ON_CURRENT_VERSION)({ ...input, carried: state });
  }
}
