import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions, type Logger } from '@temporalio/worker';
import { failureConverterPath } from '../src/codec/data-converter.js';

/** What `Worker.create` takes as pre-bundled workflow code. */
export type WorkflowBundleSource = { code: string } | { codePath: string };

export const defaultWorkflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/**
 * Interceptors that run inside the workflow sandbox, so they must be in the bundle: OpenTelemetry's (spans of workflow
 * execution, signals, updates, activity scheduling, carried on to activities through headers) and the project's
 * metrics (how each workflow ended). The worker registers the sinks both call (workers/create-worker.ts).
 */
export const workflowInterceptorModules = [
  createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
  fileURLToPath(new URL('../workflows/metrics-interceptors.ts', import.meta.url)),
];

const quiet: Logger = { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} };

/** The one set of bundle options: the worker, the build step and the tests bundle alike. */
export function workflowBundleOptions(workflowsPath = defaultWorkflowsPath): BundleOptions {
  // The failure converter runs inside the workflow sandbox too, so it is bundled with the workflows.
  return { workflowsPath, failureConverterPath, workflowInterceptorModules, logger: quiet };
}

/** Bundles in this process (webpack: seconds of CPU and a few hundred MB of heap that this process keeps). */
export async function bundleWorkflows(workflowsPath = defaultWorkflowsPath): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode(workflowBundleOptions(workflowsPath));
  return { code };
}

export class WorkflowBundleError extends Error {
  override name = 'WorkflowBundleError';
}

const childScript = fileURLToPath(new URL('./build-workflow-bundle.ts', import.meta.url));

/**
 * Bundles in a child process that hands the code back and exits: webpack's memory leaves with it, where bundling in
 * the worker itself kept its idle RSS at about 380 MB for the life of the process.
 */
export async function bundleWorkflowsInChild(workflowsPath = defaultWorkflowsPath): Promise<{ code: string }> {
  const child = fork(childScript, [workflowsPath], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    let code: string | undefined;
    child.once('message', (message: { code?: string }) => {
      code = message.code;
    });
    child.once('error', (err) => reject(new WorkflowBundleError(`Cannot bundle the workflow code: ${err.message}`)));
    child.once('exit', (status) => {
      if (status === 0 && code !== undefined) resolve({ code });
      else reject(new WorkflowBundleError(`Bundling the workflow code failed (exit ${status}); see the output above.`));
    });
  });
}

/** The configured pre-built bundle (`WORKER_WORKFLOW_BUNDLE`), else one made now in a child process. */
export async function loadWorkflowBundle(prebuiltPath: string | undefined): Promise<WorkflowBundleSource> {
  if (prebuiltPath === undefined) return bundleWorkflowsInChild();
  try {
    await fs.access(prebuiltPath);
  } catch {
    throw new WorkflowBundleError(
      `WORKER_WORKFLOW_BUNDLE: cannot read ${prebuiltPath} (build it with npm run build:workflows, or unset it)`,
    );
  }
  return { codePath: prebuiltPath };
}
