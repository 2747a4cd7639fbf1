import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflows } from '../workers/workflow-bundle.js';

/** Where the main process put the run's bundle, for the test processes to read. */
const BUNDLE_VARIABLE = 'ELIGIBILITY_TEST_WORKFLOW_BUNDLE';

let bundleDir: string | undefined;

/** In the main process: bundles the project's workflow code once per run (seconds) into a file. */
export async function bundleWorkflowFile(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-bundle-'));
  bundleDir = dir;
  const file = path.join(dir, 'workflow-bundle.js');
  await fs.writeFile(file, (await bundleWorkflows()).code);
  process.env[BUNDLE_VARIABLE] = file;
}

export async function removeWorkflowFile(): Promise<void> {
  if (bundleDir) await fs.rm(bundleDir, { recursive: true, force: true });
}

let bundle: Promise<{ code: string }> | undefined;
let traced: Promise<{ code: string }> | undefined;

/** The project's workflow code, bundled once per test run: every suite reuses it. */
export function workflowBundle(): Promise<{ code: string }> {
  bundle ??= fs.readFile(workflowBundleFile(), 'utf8').then((code) => ({ code }));
  return bundle;
}

/** The bundle of a worker whose tracing is on (OpenTelemetry's workflow interceptors in it), once per process. */
export function tracedWorkflowBundle(): Promise<{ code: string }> {
  traced ??= bundleWorkflows({ traced: true });
  return traced;
}

/** The same bundle as a file, for a worker process started as production starts it (`WORKER_WORKFLOW_BUNDLE`). */
export function workflowBundleFile(): string {
  const file = process.env[BUNDLE_VARIABLE];
  if (!file) throw new Error(`${BUNDLE_VARIABLE} is not set: the global setup did not bundle the workflows`);
  return file;
}

/** The webpack module ids of a bundle: `./workflows/x.ts`, `./node_modules/zod/...`. */
export function moduleIds(code: string): string[] {
  return [...new Set([...code.matchAll(/^\/\*{3}\/ "([^"]+)"/gm)].map((m) => m[1] ?? ''))];
}
