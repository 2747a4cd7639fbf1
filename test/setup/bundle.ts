import { bundleWorkflows } from '../../workers/workflow-bundle.js';

let bundle: Promise<{ code: string }> | undefined;

/** The project's workflow code, bundled once per test run (bundling takes seconds; every suite reuses it). */
export function workflowBundle(): Promise<{ code: string }> {
  bundle ??= bundleWorkflows();
  return bundle;
}
