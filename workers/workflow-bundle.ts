import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions, type Logger } from '@temporalio/worker';
import { failureConverterPath } from '../src/codec/data-converter.js';
import { builtWorkflowBundle, compiled, moduleExtension } from '../src/package-layout.js';

/** What `Worker.create` takes as pre-bundled workflow code. */
export type WorkflowBundleSource = { code: string } | { codePath: string };

// The TypeScript sources from tsx (tests, benchmarks), the compiled JavaScript from dist/ (`npm run build`).
export const defaultWorkflowsPath = fileURLToPath(new URL(`../workflows/index${moduleExtension}`, import.meta.url));

/**
 * Interceptors that run inside the workflow sandbox, so they must be in the bundle: OpenTelemetry's (spans of workflow
 * execution, signals, updates, activity scheduling, carried on to activities through headers) and the project's
 * metrics (how each workflow ended). The worker registers the sinks both call (workers/create-worker.ts).
 */
export const workflowInterceptorModules = [
  createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
  fileURLToPath(new URL(`../workflows/metrics-interceptors${moduleExtension}`, import.meta.url)),
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

const childScript = fileURLToPath(new URL(`./build-workflow-bundle${moduleExtension}`, import.meta.url));

/**
 * Bundles in a child process that hands the code back and exits: webpack's memory leaves with it, where bundling in
 * the worker itself kept its idle RSS at about 380 MB for the life of the process.
 */
export async function bundleWorkflowsInChild(workflowsPath = defaultWorkflowsPath): Promise<{ code: string }> {
  const child = fork(childScript, [workflowsPath], {
    // Compiled code runs as it is; the sources need tsx, which only a development install has.
    execArgv: compiled ? [] : ['--import', import.meta.resolve('tsx')],
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

/**
 * The workflow code a worker runs: the configured pre-built bundle (`WORKER_WORKFLOW_BUNDLE`); else, compiled, the one
 * `npm run build` wrote next to the code (a production worker never bundles at start: that is seconds of webpack and
 * a few hundred MB of heap per start); else, from the sources (tests, `tsx`), one made now in a child process.
 */
export async function loadWorkflowBundle(prebuiltPath: string | undefined): Promise<WorkflowBundleSource> {
  if (prebuiltPath === undefined && !compiled) return bundleWorkflowsInChild();
  const codePath = prebuiltPath ?? builtWorkflowBundle;
  try {
    await fs.access(codePath);
  } catch {
    throw new WorkflowBundleError(
      prebuiltPath === undefined
        ? `The compiled worker's workflow bundle ${codePath} is missing: run npm run build`
        : `WORKER_WORKFLOW_BUNDLE: cannot read ${codePath} (build it with npm run build, or unset it)`,
    );
  }
  return { codePath };
}
