import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflows } from '../../workers/workflow-bundle.js';

let bundle: Promise<{ code: string }> | undefined;
let traced: Promise<{ code: string }> | undefined;

/** The project's workflow code, bundled once per test run (bundling takes seconds; every suite reuses it). */
export function workflowBundle(): Promise<{ code: string }> {
  bundle ??= bundleWorkflows();
  return bundle;
}

/** The bundle of a worker whose tracing is on (OpenTelemetry's workflow interceptors in it), once per test run. */
export function tracedWorkflowBundle(): Promise<{ code: string }> {
  traced ??= bundleWorkflows({ traced: true });
  return traced;
}

let bundleFile: Promise<string> | undefined;

/** The same bundle in a file, for a worker process started as production starts it (`WORKER_WORKFLOW_BUNDLE`). */
export function workflowBundleFile(): Promise<string> {
  bundleFile ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-bundle-'));
    const file = path.join(dir, 'workflow-bundle.js');
    await fs.writeFile(file, (await workflowBundle()).code);
    return file;
  })();
  return bundleFile;
}
