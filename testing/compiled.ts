import { fileURLToPath } from 'node:url';
import { compileSources } from '../scripts/build.js';
import { bundleWorkflowFile, removeWorkflowFile, workflowBundleFile } from './bundle.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * In the main process: compiles the sources into dist/ once per run, as `npm run build` does (esbuild strips the
 * types in under a second). Every `eligibility` process a test starts runs that build: it starts in half the CPU time
 * of the sources through tsx, and the tests exercise what ships. The run's workflow bundle stands in for the build's.
 */
export async function compileForTests(): Promise<void> {
  await compileSources(ROOT);
}

/**
 * For a lab script, which runs outside mocha's global setup: the build and the workflow bundle, made as the setup makes
 * them. Returns what removes the bundle.
 */
export async function prepareCompiled(): Promise<() => Promise<void>> {
  await Promise.all([compileForTests(), bundleWorkflowFile()]);
  return removeWorkflowFile;
}

/** How tests start the `eligibility` command: `bin/eligibility.js`, on the run's build. */
export const CLI_ARGV = [fileURLToPath(new URL('../bin/eligibility.js', import.meta.url))];

/** What a compiled worker needs besides its configuration: the run's workflow bundle (dist/ has none of its own). */
export function compiledEnv(): Record<string, string> {
  return { WORKER_WORKFLOW_BUNDLE: workflowBundleFile() };
}
