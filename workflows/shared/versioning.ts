import { workflowInfo, type ContinueAsNewOptions } from '@temporalio/workflow';

/*
 * Long-running workflows (the governor, a batch) are pinned like every other, and move to a new version of the worker
 * at a point where they can: when the deployment's current version is no longer theirs, they continue as new and the
 * next run starts on the current version. So a change to them ships as a new version, never as a patch.
 */

/** True once the deployment's current (or ramping) version for this workflow is not the one it is pinned to. */
export function newVersionIsCurrent(): boolean {
  return workflowInfo().targetWorkerDeploymentVersionChanged;
}

/** Continue-as-new options that start the next run on the deployment's current version. */
export const ON_CURRENT_VERSION = {
  initialVersioningBehavior: 'AUTO_UPGRADE',
} as const satisfies Partial<ContinueAsNewOptions>;
