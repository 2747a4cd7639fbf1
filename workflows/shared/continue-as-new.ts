import { workflowInfo, type ContinueAsNewOptions } from '@temporalio/workflow';

/*
 * Long-running workflows (governor, batch, patient, refresh) are pinned like every other and move to a new
 * version of the worker where they can: they continue as new, and the next run starts on the current version. So a
 * change to them ships as a new version, never as a patch. One rule decides when, for every family.
 */

/**
 * Time to continue as new: the server suggests it, the history holds `afterEvents` events, or the deployment's current
 * (or ramping) version is no longer the one this run is pinned to.
 */
export function shouldContinueAsNew(afterEvents: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength >= afterEvents || info.targetWorkerDeploymentVersionChanged;
}

/** Continue-as-new options that start the next run on the deployment's current version. */
export const ON_CURRENT_VERSION = {
  initialVersioningBehavior: 'AUTO_UPGRADE',
} as const satisfies Partial<ContinueAsNewOptions>;
