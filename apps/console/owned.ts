import type { FastifyReply, FastifyRequest } from 'fastify';
import { mayAct, type OperatorRole } from '../../src/access/operators.js';
import { declaredAction } from '../../src/access/route-declarations.js';
import { seenBatch, seenWorkflow, sees, type TenantScope } from '../../src/access/tenancy.js';
import { BatchIdParams } from '../../src/batches/schemas.js';
import { ENDPOINT_ID } from '../../src/events/endpoint-rules.js';
import type { EventServices } from '../../src/events/services.js';
import { patientOfChange } from '../../src/patients/coverage-changes.js';
import { PATIENT_ID_PATTERN } from '../../src/patients/patient-id.js';
import { TenantSchema } from '../../src/temporal/tenant.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { CHANGE_ID_PATTERN } from '../../workflows/patient/patient.js';
import { needsDatabase } from './admin.js';
import { setOwned, type OwnedObject } from '../../src/access/owned-object.js';
import { audited } from './audit.js';
import { sendPage, withDeadline, type ConsoleDeps } from './deps.js';
import type { Owned } from './route-rules.js';
import { operatorOf } from './session.js';
import { html } from './views/html.js';
import { notFoundPage } from './pages/not-found.js';

/**
 * Roles and tenants in the console (docs/operating/console.md), applied from what each route declares: a route for
 * administrators is the plain 404 to anyone else; an action a viewer may not take is a 403 page and a `denied` entry;
 * an object of another tenant (or one started without a tenant, for an operator of some tenants) is answered exactly
 * as one that does not exist, before anything of it is read or done.
 */

/** What the wall reads objects with: the process's client, and the event services when there is a database. */
export type WallDeps = ConsoleDeps & { events?: EventServices };

/** The tenant a refresh schedule of no tenant goes by in its path. */
export const DEFAULT_SCHEDULE_TENANT = 'default';

type Params = Record<string, string | undefined>;

interface OwnedKind {
  /** The object's id from the path; undefined when it is malformed (no object's: the 404 at once). */
  id(params: Params): string | undefined;
  /** The 404 page's sentence. */
  missing(params: Params): string;
  /** What a refused viewer's entry names of it. */
  names?(id: string): { workflowId?: string; batchId?: string };
  /** The object when it exists and the scope sees it. */
  find(deps: WallDeps, scope: TenantScope, id: string): Promise<OwnedObject | undefined>;
}

const ownWorkflow = async (deps: WallDeps, scope: TenantScope, workflowId: string) => {
  const seen = await withDeadline(deps, () => seenWorkflow(deps.client, scope, workflowId));
  return seen && { workflowId, tenant: seen.tenant };
};

const KINDS: Record<Exclude<Owned, 'own-tenant' | 'none'>, OwnedKind> = {
  workflow: {
    id: ({ workflowId }) => workflowId,
    missing: ({ workflowId }) => `There is no workflow ${workflowId}.`,
    names: (workflowId) => ({ workflowId }),
    find: ownWorkflow,
  },
  batch: {
    id: ({ batchId }) => (BatchIdParams.safeParse({ batchId }).success ? batchId : undefined),
    missing: () => 'There is no such batch.',
    names: (batchId) => ({ batchId }),
    find: async (deps, scope, batchId) => {
      const batch = await withDeadline(deps, () => seenBatch(deps.client, scope, batchId));
      return batch && { batch, tenant: batch.tenant ?? null };
    },
  },
  patient: {
    id: ({ patientId }) => (patientId !== undefined && PATIENT_ID_PATTERN.test(patientId) ? patientId : undefined),
    missing: () => 'There is no such patient.',
    find: (deps, scope, patientId) => ownWorkflow(deps, scope, patientWorkflowId(patientId)),
  },
  'coverage-change': {
    id: ({ changeId }) => (changeId !== undefined && CHANGE_ID_PATTERN.test(changeId) ? changeId : undefined),
    missing: () => 'There is no such change.',
    names: (changeId) => ({ workflowId: patientOfChange(changeId) }),
    find: (deps, scope, changeId) => ownWorkflow(deps, scope, patientOfChange(changeId)),
  },
  endpoint: {
    id: ({ id }) => (id !== undefined && ENDPOINT_ID.test(id) ? id : undefined),
    missing: () => 'There is no event endpoint with this id.',
    find: async (deps, scope, id) => {
      const endpoint = await deps.events?.endpoints.get(id, null);
      return endpoint && sees(scope, endpoint.tenant) ? { endpoint, tenant: endpoint.tenant } : undefined;
    },
  },
  schedule: {
    id: ({ tenant }) => (TenantSchema.safeParse(tenant).success ? tenant : undefined),
    missing: () => 'There is no such schedule.',
    find: (_deps, scope, named) => {
      const tenant = named === DEFAULT_SCHEDULE_TENANT ? null : named;
      return Promise.resolve(sees(scope, tenant) ? { tenant } : undefined);
    },
  },
};

/** The role a route declares it needs (any signed-in person: a viewer). */
function neededRole(request: FastifyRequest): OperatorRole | undefined {
  const access = request.routeOptions.config.access;
  return access !== undefined && 'role' in access ? access.role : undefined;
}

/**
 * `onRequest`, after the sign-in guard: a route for administrators does not exist for anyone else (the plain 404, as
 * for a path that does not exist: nothing says there is something here they may not see).
 */
export async function hideAdminRoutes(request: FastifyRequest, reply: FastifyReply) {
  if (neededRole(request) !== 'admin' || operatorOf(request).role === 'admin') return undefined;
  reply.callNotFound();
  return reply;
}

/** A viewer's refused action: the page saying so and a `denied` entry naming the object; nothing is sent to Temporal. */
async function refuseReadOnly(deps: WallDeps, request: FastifyRequest, reply: FastifyReply, names: object) {
  const operator = operatorOf(request);
  const access = request.routeOptions.config.access;
  const what = access !== undefined && 'to' in access ? access.to : 'do this';
  request.log.warn(
    { operator: operator.name, role: operator.role, action: declaredAction(request) },
    'console action refused to role',
  );
  await audited(deps.audit, request, { ...names, outcome: 'denied' });
  return sendPage(
    request,
    reply,
    { title: 'Not allowed' },
    () =>
      html`<p>Your role (${operator.role}) cannot ${what}. Nothing was done.</p>
        <p><a href="/awaiting-input">Back to the console</a></p>`,
    403,
  );
}

/**
 * The wall of a route (its last preHandler, after CSRF): a path naming no object of this kind is the 404; then an
 * action a viewer may not take is refused (the same whether the object exists); then the object is found within the
 * operator's tenants, or the page is the 404 a missing one gets.
 */
export const applyWall = (deps: WallDeps) => async (request: FastifyRequest, reply: FastifyReply) => {
  const owns = (request.routeOptions.config.owns ?? 'none') as Owned;
  const kind = owns === 'own-tenant' || owns === 'none' ? undefined : KINDS[owns];
  const params = (request.params ?? {}) as Params;
  const id = kind?.id(params);
  if (kind && id === undefined) return notFoundPage(request, reply, kind.missing(params));
  if (neededRole(request) === 'operator' && !mayAct(operatorOf(request))) {
    return refuseReadOnly(deps, request, reply, kind && id !== undefined ? (kind.names?.(id) ?? {}) : {});
  }
  if (!kind || id === undefined) return undefined;
  const operator = operatorOf(request);
  if (owns === 'endpoint' && !deps.events) return needsDatabase(request, reply, 'Event endpoints', 'Event endpoints');
  const found = await kind.find(deps, operator.tenants, id);
  if (!found) return notFoundPage(request, reply, kind.missing(params));
  setOwned(request, found);
  return undefined;
};
