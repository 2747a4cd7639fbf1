import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { WorkerDeploymentOptions } from '@temporalio/worker';
import type { WorkflowBundleSource } from './workflow-bundle.js';

/**
 * A build's id: the hash of its workflow bundle. Two builds with the same workflow code are the same version, so a
 * change to anything else (activities, the API, the console) never strands a pinned workflow; a change to workflow
 * code is always a new version.
 */
export async function buildIdOf(bundle: WorkflowBundleSource): Promise<string> {
  const code = 'code' in bundle ? bundle.code : await fs.readFile(bundle.codePath, 'utf8');
  return `b-${createHash('sha256').update(code).digest('hex').slice(0, 12)}`;
}

/**
 * The worker as a version of its deployment. Every workflow is pinned to the version it started on, so a running one
 * never meets new code; the long-running ones (governor, batch) continue as new onto the current version when it
 * changes (`workflows/shared/continue-as-new.ts`).
 */
export function deploymentOptions(deploymentName: string, buildId: string): WorkerDeploymentOptions {
  return {
    version: { deploymentName, buildId },
    useWorkerVersioning: true,
    defaultVersioningBehavior: 'PINNED',
  };
}
