import type { FastifyReply, FastifyRequest } from 'fastify';
import { mayAct, type OperatorRole } from '../../src/access/operators.js';
import { declaredAction } from '../../src/access/route-declarations.js';
import { noteRefusal, probed, refusedAction, type Refusal } from '../../src/access/refusals.js';
import { EVERY_TENANT, seenWorkflow, sees } from '../../src/access/tenancy.js';
import { describeBatch } from '../../src/batches/describe.js';
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
import { sendPage, withDeadline, type ConsoleDeps } from './deps.js';
import type { Owned } from './route-rules.js';
import { operatorOf } from './session.js';
import { html } from './views/html.js';
import { notFoundPage } from './pages/not-found.js';

/**
 * Roles and tenants in the console (docs/operating/console.md), applied from what each route declares: a route for
 * administrators is the plain 404 to anyone else; an action a viewer may not take is a 403 page; an object of another
 * tenant (or one started without a tenant, for an operator of some tenants) is answered exactly as one that does not
 * exist, before anything of it is read or done. Each refusal is noted here and recorded once by the answer hook
 * (`recordRefusals`, audit.ts).
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
  /** What an entry names of it (its workflow, batch, or an id added to the action). */
  names(id: string): Partial<Refusal>;
  /** The object when it exists, whichever its tenant: the wall checks that (`sees`) and records it. */
  find(deps: WallDeps, id: string): Promise<(OwnedObject & { tenant: string | null }) | undefined>;
}

const findWorkflow = async (deps: WallDeps, workflowId: string) => {
  const found = await withDeadline(deps, () => seenWorkflow(deps.client, EVERY_TENANT, workflowId));
  return found && { workflowId, tenant: found.tenant };
};

const KINDS: Record<Exclude<Owned, 'own-tenant' | 'none'>, OwnedKind> = {
  workflow: {
    id: ({ workflowId }) => workflowId,
    missing: ({ workflowId }) => `There is no workflow ${workflowId}.`,
    names: (workflowId) => probed({ workflowId }),
    find: findWorkflow,
  },
  batch: {
    id: ({ batchId }) => (BatchIdParams.safeParse({ batchId }).success ? batchId : undefined),
    missing: () => 'There is no such batch.',
    names: (batchId) => probed({ batchId }),
    find: async (deps, batchId) => {
      const batch = await withDeadline(deps, () => describeBatch(deps.client, batchId));
      return batch && { batch, tenant: batch.tenant ?? null };
    },
  },
  patient: {
    id: ({ patientId }) => (patientId !== undefined && PATIENT_ID_PATTERN.test(patientId) ? patientId : undefined),
    missing: () => 'There is no such patient.',
    names: (patientId) => probed({ workflowId: patientWorkflowId(patientId) }),
    find: (deps, patientId) => findWorkflow(deps, patientWorkflowId(patientId)),
  },
  'coverage-change': {
    id: ({ changeId }) => (changeId !== undefined && CHANGE_ID_PATTERN.test(changeId) ? changeId : undefined),
    missing: () => 'There is no such change.',
    names: (changeId) => probed({ workflowId: patientOfChange(changeId) }),
    find: (deps, changeId) => findWorkflow(deps, patientOfChange(changeId)),
  },
  endpoint: {
    id: ({ id }) => (id !== undefined && ENDPOINT_ID.test(id) ? id : undefined),
    missing: () => 'There is no event endpoint with this id.',
    names: (id) => probed({ objectId: id }),
    find: async (deps, id) => {
      const endpoint = await deps.events?.endpoints.get(id, null);
      return endpoint && { endpoint, tenant: endpoint.tenant };
    },
  },
  schedule: {
    id: ({ tenant }) => (TenantSchema.safeParse(tenant).success ? tenant : undefined),
    missing: () => 'There is no such schedule.',
    names: () => ({}),
    // A tenant's schedule is there for every tenant (made on its first refresh): its tenant is the one named.
    find: (_deps, named) => Promise.resolve({ tenant: named === DEFAULT_SCHEDULE_TENANT ? null : named }),
  },
};

/** The role a route declares it needs (any signed-in person: a viewer). */
function neededRole(request: FastifyRequest): OperatorRole | undefined {
  const access = request.routeOptions.config.access;
  return access !== undefined && 'role' in access ? access.role : undefined;
}

/**
 * `onRequest`, after the sign-in guard: a route for administrators does not exist for anyone else (the plain 404, as
 * for a path that does not exist: nothing says there is something here they may not see). It is a `denied` entry,
 * naming what the path names (looked up by no one: the operator learns nothing either way).
 */
export async function hideAdminRoutes(request: FastifyRequest, reply: FastifyReply) {
  if (neededRole(request) !== 'admin' || operatorOf(request).role === 'admin') return undefined;
  const { kind, id } = pathObject(request);
  const names = kind && id !== undefined ? kind.names(id) : {};
  // Its own action: the not-found handler that answers has none.
  noteRefusal(request, { outcome: 'denied', tenant: null, action: refusedAction(request), ...names });
  reply.callNotFound();
  return reply;
}

/** A viewer's refused action: the page saying so; its `denied` entry is the answer hook's. Nothing goes to Temporal. */
async function refuseReadOnly(request: FastifyRequest, reply: FastifyReply) {
  const operator = operatorOf(request);
  const access = request.routeOptions.config.access;
  const what = access !== undefined && 'to' in access ? access.to : 'do this';
  request.log.warn(
    { operator: operator.name, role: operator.role, action: declaredAction(request) },
    'console action refused to role',
  );
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

/** The kind of object the route's path names, and its id (undefined: malformed). */
function pathObject(request: FastifyRequest): { kind?: OwnedKind; id?: string } {
  const owns = (request.routeOptions.config.owns ?? 'none') as Owned;
  const kind = owns === 'own-tenant' || owns === 'none' ? undefined : KINDS[owns];
  const id = kind?.id((request.params ?? {}) as Params);
  return { ...(kind ? { kind } : {}), ...(id !== undefined ? { id } : {}) };
}

/**
 * The wall of a route (its last preHandler, after CSRF): a path naming no object of this kind is the 404; then the
 * object is looked up, whichever its tenant, for the entry of a refusal; an action a viewer may not take is refused
 * (the same page whether the object exists); then an object outside the operator's tenants, or a missing one, is the
 * 404 a missing one gets. Each refusal is noted for its entry (`denied` with the object's tenant, or `not-found`).
 */
export const applyWall = (deps: WallDeps) => async (request: FastifyRequest, reply: FastifyReply) => {
  const { kind, id } = pathObject(request);
  const params = (request.params ?? {}) as Params;
  if (kind && id === undefined) {
    noteRefusal(request, { outcome: 'not-found', tenant: null });
    return notFoundPage(request, reply, kind.missing(params));
  }
  const owns = request.routeOptions.config.owns;
  if (owns === 'endpoint' && !deps.events) return needsDatabase(request, reply, 'Event endpoints', 'Event endpoints');
  const found = kind && id !== undefined ? await kind.find(deps, id) : undefined;
  const names = kind && id !== undefined ? kind.names(id) : {};
  if (neededRole(request) === 'operator' && !mayAct(operatorOf(request))) {
    noteRefusal(request, { outcome: 'denied', tenant: found?.tenant ?? null, ...names });
    return refuseReadOnly(request, reply);
  }
  if (!kind) return undefined;
  if (!found || !sees(operatorOf(request).tenants, found.tenant)) {
    noteRefusal(request, { outcome: found ? 'denied' : 'not-found', tenant: found?.tenant ?? null, ...names });
    return notFoundPage(request, reply, kind.missing(params));
  }
  setOwned(request, found);
  return undefined;
};
