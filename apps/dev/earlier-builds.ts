import type { Client } from '@temporalio/client';
import { describeDeployment } from '../../src/temporal/deployments.js';
import { and, pinnedTo, withStatus } from '../../src/temporal/visibility-query.js';

/**
 * The dev stack keeps its workflows in `.data/` across runs, but only ever runs its own build: a workflow left pinned
 * to an earlier build would wait for workers that never come back. So it moves them onto the current build (an
 * auto-upgrade override), as an unversioned worker would have taken them; a change to their workflow code may then fail
 * their replay, which a production deployment avoids by keeping the earlier version's workers until it drains.
 */
export async function moveEarlierBuildsHere(client: Client, deploymentName: string, buildId: string): Promise<number> {
  const view = await describeDeployment(client, deploymentName);
  let moved = 0;
  for (const version of view?.versions ?? []) {
    if (version.buildId === buildId) continue;
    const query = and(withStatus('Running'), pinnedTo(deploymentName, version.buildId));
    for await (const info of client.workflow.list({ query })) {
      await client.workflowService.updateWorkflowExecutionOptions({
        namespace: client.options.namespace,
        workflowExecution: { workflowId: info.workflowId, runId: info.runId },
        workflowExecutionOptions: { versioningOverride: { autoUpgrade: true } },
        updateMask: { paths: ['versioning_override'] },
        identity: 'eligibility dev',
      });
      moved++;
    }
  }
  return moved;
}
