import { bundleWorkflows, type WorkflowBundleSource } from '../../workers/workflow-bundle.js';

let bundle: Promise<WorkflowBundleSource> | undefined;

/** The project's workflow code, bundled once per test run (bundling takes seconds; every suite reuses it). */
export function workflowBundle(): Promise<WorkflowBundleSource> {
  bundle ??= bundleWorkflows();
  return bundle;
}
