import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyRequest } from 'fastify';
import {
  scopeOfTenant,
  seenBatch,
  sees,
  tenantToStart,
  workflowTenant,
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

/**
 * The tenant what the caller starts (or searches) belongs to: its credential's. A request naming another is refused
 * (403 naming `tenant`); a caller of every tenant may name one, or none.
 */
export function startTenant(request: FastifyRequest, named: string | undefined): string | undefined {
  const started = tenantToStart(scopeOf(request), named);
  if ('refused' in started) throw forbiddenTenant('this client acts for another tenant');
  return started.tenant;
}

/**
 * A workflow the caller names must be of its tenant; another tenant's is thrown as one that does not exist
 * (`WorkflowNotFoundError`, the route's 404). A caller of every tenant needs no look: the route's own call finds a
 * workflow that does not exist.
 */
async function ownWorkflow(deps: IntakeDeps, request: FastifyRequest, workflowId: string): Promise<OwnedObject> {
  const scope = scopeOf(request);
  if (scope !== null) {
    const tenant = await withDeadline(deps, () => workflowTenant(deps.client, workflowId));
    if (!sees(scope, tenant)) throw new WorkflowNotFoundError('no such workflow', workflowId, undefined);
  }
  return { workflowId };
}

type Params = Record<string, string>;

/** How each kind of object is found from the path and checked. */
const LOADERS: Partial<
  Record<Owned, (deps: IntakeDeps, request: FastifyRequest, params: Params) => Promise<OwnedObject>>
> = {
  workflow: (deps, request, { workflowId }) => ownWorkflow(deps, request, workflowId!),
  patient: (deps, request, { patientId }) => {
    patientsOf(deps);
    return ownWorkflow(deps, request, patientWorkflowId(patientId!));
  },
  appointment: (deps, request, { appointmentId }) => {
    patientsOf(deps);
    return ownWorkflow(deps, request, patientWorkflowId(patientOfAppointment(appointmentId!)));
  },
  'coverage-change': (deps, request, { changeId }) => ownWorkflow(deps, request, patientOfChange(changeId!)),
  batch: async (deps, request, { batchId }) => {
    const batch = await withDeadline(deps, () => seenBatch(deps.client, scopeOf(request), batchId!));
    if (!batch) throw notFound(`no batch ${batchId}`);
    return { batch };
  },
  endpoint: async (deps, request, { endpointId }) => {
    const endpoint = await eventsOf(deps).endpoints.get(endpointId!, null);
    if (!endpoint || !sees(scopeOf(request), endpoint.tenant)) throw notFound('no such event endpoint');
    return { endpoint };
  },
};

/**
 * The tenant wall of a route that names an object (its `config.owns`): the object is loaded and its tenant checked
 * before the handler runs, after the request's validation, so that another tenant's object is answered exactly as one
 * that does not exist and nothing of it is read or done.
 */
export const checkOwned = (deps: IntakeDeps) => async (request: FastifyRequest) => {
  const load = LOADERS[(request.routeOptions.config.owns ?? 'none') as Owned];
  if (load) setOwned(request, await load(deps, request, request.params as Params));
};
