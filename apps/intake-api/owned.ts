import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyRequest } from 'fastify';
import { describeBatch } from '../../src/batches/describe.js';
import { noteRefusal, probed, recordableId, type Refusal } from '../../src/access/refusals.js';
import {
  EVERY_TENANT,
  scopeOfTenant,
  seenWorkflow,
  sees,
  tenantToStart,
  type TenantScope,
} from '../../src/access/tenancy.js';
import { setOwned, type OwnedObject } from '../../src/access/owned-object.js';
import { patientOfChange } from '../../src/patients/coverage-changes.js';
import { patientOfAppointment } from '../../src/patients/patients.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { principalOf } from './access.js';
import { withDeadline, type IntakeDeps } from './deps.js';
import { eventsOf } from './event-access.js';
import { forbiddenTenant, notFound } from './errors.js';
import { patientsOf } from './patient-access.js';
import type { Owned } from './route-rules.js';

/** The tenants the request's caller sees: its credential's one tenant, or every tenant. */
export const scopeOf = (request: FastifyRequest): TenantScope => scopeOfTenant(principalOf(request).tenant);

const ANOTHER_TENANT = 'this client acts for another tenant';

/**
 * The tenant what the caller starts (or searches) belongs to: its credential's. A request naming another is refused
 * (403 naming `tenant`, a `denied` entry with the tenant named); a caller of every tenant may name one, or none.
 */
export function startTenant(request: FastifyRequest, named: string | undefined): string | undefined {
  const started = tenantToStart(scopeOf(request), named);
  if ('refused' in started) {
    noteRefusal(request, { outcome: 'denied', tenant: recordableId(named) ?? null });
    throw forbiddenTenant(ANOTHER_TENANT);
  }
  return started.tenant;
}

type Params = Record<string, string>;

/** The workflow each kind names (a patient's, an appointment's or a change's is its patient's). */
const WORKFLOW_OF: Partial<Record<Owned, (params: Params) => string>> = {
  workflow: ({ workflowId }) => workflowId!,
  patient: ({ patientId }) => patientWorkflowId(patientId!),
  appointment: ({ appointmentId }) => patientWorkflowId(patientOfAppointment(appointmentId!)),
  'coverage-change': ({ changeId }) => patientOfChange(changeId!),
};

/** The ids a route's path names, as a refusal records them (before the object is looked at: a scope's 403). */
export function idsFromPath(request: FastifyRequest): Partial<Refusal> {
  const owns = (request.routeOptions.config.owns ?? 'none') as Owned;
  const params = (request.params ?? {}) as Params;
  const workflow = WORKFLOW_OF[owns];
  if (workflow) return probed({ workflowId: workflow(params) });
  if (owns === 'batch') return probed({ batchId: params.batchId });
  if (owns === 'endpoint') return probed({ objectId: params.endpointId });
  return {};
}

/**
 * Refuses an object as one that does not exist (`answer`, the route's 404), noting for the audit entry whether it
 * exists: another tenant's is `denied` with its tenant, a missing one `not-found` with none.
 */
function refuse(request: FastifyRequest, tenant: string | null | undefined, answer: Error): never {
  const exists = tenant !== undefined;
  noteRefusal(request, { outcome: exists ? 'denied' : 'not-found', tenant: tenant ?? null, ...idsFromPath(request) });
  throw answer;
}

/**
 * A workflow the caller names must be of its tenant; another tenant's is thrown as one that does not exist
 * (`WorkflowNotFoundError`, the route's 404). It is looked up whatever the caller's scope, so that the entry of a
 * caller of every tenant records the workflow's tenant too.
 */
async function ownWorkflow(deps: IntakeDeps, request: FastifyRequest, workflowId: string): Promise<OwnedObject> {
  const found = await withDeadline(deps, () => seenWorkflow(deps.client, EVERY_TENANT, workflowId));
  if (!found || !sees(scopeOf(request), found.tenant)) {
    refuse(request, found?.tenant, new WorkflowNotFoundError('no such workflow', workflowId, undefined));
  }
  return { workflowId, tenant: found.tenant };
}

/** How each kind of object is found from the path and checked. */
const LOADERS: Partial<
  Record<Owned, (deps: IntakeDeps, request: FastifyRequest, params: Params) => Promise<OwnedObject>>
> = {
  workflow: (deps, request, params) => ownWorkflow(deps, request, WORKFLOW_OF.workflow!(params)),
  patient: (deps, request, params) => {
    patientsOf(deps);
    return ownWorkflow(deps, request, WORKFLOW_OF.patient!(params));
  },
  appointment: (deps, request, params) => {
    patientsOf(deps);
    return ownWorkflow(deps, request, WORKFLOW_OF.appointment!(params));
  },
  'coverage-change': (deps, request, params) => ownWorkflow(deps, request, WORKFLOW_OF['coverage-change']!(params)),
  batch: async (deps, request, { batchId }) => {
    const batch = await withDeadline(deps, () => describeBatch(deps.client, batchId!));
    const tenant = batch && (batch.tenant ?? null);
    if (!batch || !sees(scopeOf(request), tenant)) refuse(request, tenant, notFound('no such batch'));
    return { batch, tenant };
  },
  endpoint: async (deps, request, { endpointId }) => {
    const endpoint = await eventsOf(deps).endpoints.get(endpointId!, null);
    if (!endpoint || !sees(scopeOf(request), endpoint.tenant)) {
      refuse(request, endpoint?.tenant, notFound('no such event endpoint'));
    }
    return { endpoint, tenant: endpoint.tenant };
  },
};

/**
 * The tenant wall of a route (its last preHandler, after the request's validation): a `tenant` in the query that the
 * caller does not act for is the body rule's 403 (a list is never silently empty for it); an object the path names
 * (its `config.owns`) is loaded and its tenant checked before the handler runs, so that another tenant's object is
 * answered exactly as one that does not exist and nothing of it is read or done.
 */
export const checkOwned = (deps: IntakeDeps) => async (request: FastifyRequest) => {
  const named = (request.query as { tenant?: unknown } | undefined)?.tenant;
  if (request.principal && typeof named === 'string' && !sees(scopeOf(request), named)) {
    noteRefusal(request, { outcome: 'denied', tenant: recordableId(named) ?? null });
    throw forbiddenTenant(ANOTHER_TENANT);
  }
  const load = LOADERS[(request.routeOptions.config.owns ?? 'none') as Owned];
  if (load) setOwned(request, await load(deps, request, request.params as Params));
};
