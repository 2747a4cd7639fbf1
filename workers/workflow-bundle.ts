import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions, type Logger } from '@temporalio/worker';
import { failureConverterPath } from '../src/codec/data-converter.js';
import { builtTracedWorkflowBundle, builtWorkflowBundle, compiled, moduleExtension } from '../src/package-layout.js';

/** What `Worker.create` takes as pre-bundled workflow code. */
export type WorkflowBundleSource = { code: string } | { codePath: string };

// The TypeScript sources from tsx (tests, benchmarks), the compiled JavaScript from dist/ (`npm run build`).
export const defaultWorkflowsPath = fileURLToPath(new URL(`../workflows/index${moduleExtension}`, import.meta.url));

/** The project's metrics (how each workflow ended): in every bundle. */
const metricsInterceptors = fileURLToPath(
  new URL(`../workflows/metrics-interceptors${moduleExtension}`, import.meta.url),
);
/** OpenTelemetry's (spans of workflow execution, signals, updates, activity scheduling, carried on to activities). */
const tracingInterceptors = createRequire(import.meta.url).resolve(
  '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
);

/**
 * Interceptors that run inside the workflow sandbox, so they must be in the bundle; the worker registers the sinks
 * they call (workers/create-worker.ts). OpenTelemetry's only in the traced bundle: the sandbox sets up the modules of
 * a bundle's interceptors at every workflow start and replay, and OpenTelemetry's setup is a large share of the
 * worker's CPU per verification, spent for nothing with tracing off, where its spans go nowhere.
 */
export function workflowInterceptorModules(traced: boolean): string[] {
  return traced ? [tracingInterceptors, metricsInterceptors] : [metricsInterceptors];
}

const quiet: Logger = { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} };

/** Which bundle: the project's workflows (or a benchmark's), with OpenTelemetry's interceptors or without. */
export interface BundleChoice {
  workflowsPath?: string;
  /** With OpenTelemetry's workflow interceptors: for a worker whose tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT). */
  traced?: boolean;
  /** The workflow modules loaded once and shared (the default); false only to measure what that saves. */
  preloaded?: boolean;
}

/** The one set of bundle options: the worker, the build step and the tests bundle alike. */
export function workflowBundleOptions({
  workflowsPath = defaultWorkflowsPath,
  traced = false,
  preloaded = true,
}: BundleChoice = {}) {
  // The failure converter runs inside the workflow sandbox too, so it is bundled with the workflows.
  const options: BundleOptions = {
    workflowsPath,
    failureConverterPath,
    workflowInterceptorModules: workflowInterceptorModules(traced),
    // Loaded once into the worker's reused V8 context and shared by every workflow, instead of instantiated for each
    // cached workflow (their closures and module objects were most of its heap). The SDK deep-freezes them, so a
    // module that kept state of one workflow at module level would fail loudly rather than leak it into another.
    // Not OpenTelemetry's interceptors: their modules read workflow globals (performance) as they load.
    preloadModules: preloaded ? [workflowsPath, metricsInterceptors, failureConverterPath] : [],
    logger: quiet,
    // The source map keeps its mappings (stack traces name the TypeScript file and line) but not the sources' text:
    // the SDK parses the map in every worker's workflow thread, and the text would cost each worker some 8 MB.
    webpackConfigHook: (config) => ({ ...config, devtool: 'inline-nosources-source-map' }),
  };
  return options;
}

/** Bundles in this process (webpack: seconds of CPU and a few hundred MB of heap that this process keeps). */
export async function bundleWorkflows(choice: BundleChoice = {}): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode(workflowBundleOptions(choice));
  return { code };
}

export class WorkflowBundleError extends Error {
  override name = 'WorkflowBundleError';
}

/** The build script's argument for the traced bundle. */
export const TRACED_FLAG = '--traced';

const childScript = fileURLToPath(new URL(`./build-workflow-bundle${moduleExtension}`, import.meta.url));

/**
 * Bundles in a child process that hands the code back and exits: webpack's memory leaves with it, where bundling in
 * the worker itself would keep that memory in its idle RSS for the life of the process.
 */
export async function bundleWorkflowsInChild({
  workflowsPath = defaultWorkflowsPath,
  traced = false,
}: BundleChoice = {}): Promise<{ code: string }> {
  const child = fork(childScript, [workflowsPath, ...(traced ? [TRACED_FLAG] : [])], {
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
 * `npm run build` wrote next to the code, traced or not as the worker's tracing is (a production worker never bundles
 * at start: that is seconds of webpack and a few hundred MB of heap per start); else, from the sources (tests, `tsx`),
 * one made now in a child process.
 */
export async function loadWorkflowBundle(
  prebuiltPath: string | undefined,
  traced: boolean,
): Promise<WorkflowBundleSource> {
  if (prebuiltPath === undefined && !compiled) return bundleWorkflowsInChild({ traced });
  const codePath = prebuiltPath ?? (traced ? builtTracedWorkflowBundle : builtWorkflowBundle);
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
