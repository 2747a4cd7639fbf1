import type { Client, WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import { grpcCode, GrpcStatus } from './errors.js';
import { and, onTaskQueue, pinnedTo, ranUnversioned, withStatus } from './visibility-query.js';

/*
 * Worker Deployments (docs/operating/deploying-changes.md), over Temporal's deployment API: which version of the worker
 * takes new workflows, which versions still hold pinned ones, and the operator's moves (ramp, promote, roll back). Each
 * build of the worker is a version whose build id is its workflow bundle's hash; the CLI's `eligibility deploy` and the
 * dev stack use this.
 */

const { VersionDrainageStatus, WorkerDeploymentVersionStatus } = proto.temporal.api.enums.v1;
type DeploymentInfo = proto.temporal.api.deployment.v1.IWorkerDeploymentInfo;
type VersionSummary = proto.temporal.api.deployment.v1.WorkerDeploymentInfo.IWorkerDeploymentVersionSummary;

/** One version of a deployment as an operator reads it. */
export interface DeploymentVersionView {
  buildId: string;
  /** `current` takes new workflows; `ramping` a share of them; `draining` still runs pinned ones; `drained` none. */
  state: 'current' | 'ramping' | 'draining' | 'drained' | 'inactive';
  createdAt?: string;
}

export interface DeploymentView<V extends DeploymentVersionView = DeploymentVersionView> {
  name: string;
  current?: string;
  ramping?: { buildId: string; percentage: number };
  versions: V[];
}

/** A version with its open pinned workflows (visibility, a moment behind): its workers are needed until this is 0. */
export interface DeploymentVersionStatus extends DeploymentVersionView {
  running: number;
}

export class DeploymentError extends Error {
  override name = 'DeploymentError';
}

const iso = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t?.seconds != null ? new Date(Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString() : undefined;

function versionState(summary: VersionSummary): DeploymentVersionView['state'] {
  switch (summary.status) {
    case WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT:
      return 'current';
    case WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING:
      return 'ramping';
    case WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING:
      return 'draining';
    case WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED:
      return 'drained';
    default:
      // Older servers report drainage only.
      if (summary.drainageStatus === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINING) return 'draining';
      if (summary.drainageStatus === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED) return 'drained';
      return 'inactive';
  }
}

/** The deployment's routing and versions, newest first; undefined when no worker of it has polled yet. */
export async function describeDeployment(client: Client, name: string): Promise<DeploymentView | undefined> {
  let info: DeploymentInfo | null | undefined;
  try {
    ({ workerDeploymentInfo: info } = await client.workflowService.describeWorkerDeployment({
      namespace: client.options.namespace,
      deploymentName: name,
    }));
  } catch (err) {
    if (grpcCode(err) === GrpcStatus.NOT_FOUND) return undefined;
    throw err;
  }
  const routing = info?.routingConfig;
  const current = routing?.currentDeploymentVersion?.buildId || undefined;
  const rampingId = routing?.rampingDeploymentVersion?.buildId || undefined;
  const versions = (info?.versionSummaries ?? [])
    .filter((s) => s.deploymentVersion?.buildId)
    .map((s) => ({
      buildId: s.deploymentVersion?.buildId ?? '',
      state: versionState(s),
      createdAt: iso(s.createTime),
    }));
  versions.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  return {
    name,
    ...(current ? { current } : {}),
    ...(rampingId ? { ramping: { buildId: rampingId, percentage: routing?.rampingVersionPercentage ?? 0 } } : {}),
    versions,
  };
}

/** Open workflows pinned to one version: one visibility count, asked only where it is needed. */
export async function runningOn(client: Client, name: string, buildId: string): Promise<number> {
  return (await client.workflow.count(and(withStatus('Running'), pinnedTo(name, buildId)))).count;
}

/**
 * Workflows still open on `taskQueue` whose history an unversioned worker wrote and no versioned worker has taken
 * since: from before worker versioning (decision 36). They replay only on the first versioned build, which still
 * carries their patches. A workflow no worker has run yet is not one of them: any version can start it.
 */
export async function openBeforeVersioning(client: Client, taskQueue: string): Promise<number> {
  return (await client.workflow.count(and(withStatus('Running'), onTaskQueue(taskQueue), ranUnversioned))).count;
}

/** `describeDeployment` with each version's open pinned workflows: what `eligibility deploy status` shows. */
export async function deploymentStatus(
  client: Client,
  name: string,
): Promise<DeploymentView<DeploymentVersionStatus> | undefined> {
  const view = await describeDeployment(client, name);
  if (!view) return undefined;
  const versions = await Promise.all(
    view.versions.map(async (v) => ({ ...v, running: await runningOn(client, name, v.buildId) })),
  );
  return { ...view, versions };
}

/** The build a workflow is pinned to, as the server records it; undefined for an unversioned one. */
export async function pinnedBuildId(handle: WorkflowHandle): Promise<string | undefined> {
  const { raw } = await handle.describe();
  return raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
}

/** Makes `buildId` the version that takes every new workflow (a promotion, or a rollback to an older one). */
export async function setCurrentVersion(client: Client, name: string, buildId: string, identity: string) {
  await client.workflowService.setWorkerDeploymentCurrentVersion({
    namespace: client.options.namespace,
    deploymentName: name,
    buildId,
    identity,
  });
}

/** Sends `percentage` of new workflows to `buildId`, the rest to the current version; 0 with no id stops a ramp. */
export async function setRampingVersion(
  client: Client,
  name: string,
  buildId: string | undefined,
  percentage: number,
  identity: string,
) {
  if (!(percentage >= 0 && percentage <= 100)) throw new DeploymentError('percentage: expected 0 to 100');
  await client.workflowService.setWorkerDeploymentRampingVersion({
    namespace: client.options.namespace,
    deploymentName: name,
    buildId: buildId ?? '',
    percentage,
    identity,
  });
}
