import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { failureConverterPath } from '../../src/codec/data-converter.js';

let bundle: Promise<WorkflowBundle> | undefined;

/** The project's workflow code, bundled once per test run (bundling takes seconds; every suite reuses it). */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('../../workflows/index.ts', import.meta.url)),
    // The worker's failure converter runs inside the workflow sandbox, so it is bundled with the workflows.
    failureConverterPath,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
  });
  return bundle;
}
