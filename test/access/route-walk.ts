import { randomBytes, randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { declaredRoutes, type DeclaredRoute, type RouteAccess } from '../../src/access/route-declarations.js';
import type { AuditEntry } from '../../src/audit/audit-entry.js';
import { patientOfChange } from '../../src/patients/coverage-changes.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';

/** What a walk needs to know of an app: its access rules, the objects its routes may own, the params naming them. */
export interface WalkRules {
  /** Whether an access rule is one of the app's (the intake API: a scope; the console: a role). */
  knows(access: RouteAccess): boolean;
  owned: readonly string[];
  /** A path parameter naming an object, and the object a route with it must declare that it owns. */
  ownerOf: Record<string, string>;
  /** Every route open to all (`METHOD /path`): opening one more is a change this list must show. */
  open: readonly string[];
}

/**
 * The paths of one method's routes as Fastify's router prints them (a tree: each node's path follows its parent's, its
 * methods in parentheses). A plugin's root route is held under its prefix both with and without the trailing slash,
 * from one declaration: those count once.
 */
function printedPaths(app: FastifyInstance, method: string): Set<string> {
  const parents: string[] = [];
  const paths = new Set<string>();
  for (const line of app.printRoutes({ method, commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    const path = (parents[depth - 1] ?? '') + node[2]!;
    parents[depth] = path;
    if (node[3]?.split(', ').includes(method)) paths.add(path.replace(/(.)\/$/, '$1'));
  }
  return paths;
}

/** Why a route's declarations fail the walk; none when it declares an access, an owned object and an audit. */
export function faults(route: DeclaredRoute, rules: WalkRules): string[] {
  const found: string[] = [];
  const { access, owns, audit } = route;
  if (access === undefined || !('open' in access ? access.open.length > 0 : rules.knows(access))) {
    found.push('no access rule');
  }
  if (owns === undefined || ![...rules.owned, 'own-tenant', 'none'].includes(owns)) found.push('no owned object');
  const named = Object.keys(rules.ownerOf).find((param) => route.url.includes(`:${param}`));
  if (named !== undefined && owns !== rules.ownerOf[named]) found.push(`:${named} in its path but owns ${owns}`);
  if (
    audit === undefined ||
    (typeof audit === 'string' && audit === '') ||
    (typeof audit === 'object' && !audit.none)
  ) {
    found.push('no audit action');
  }
  return found;
}

/**
 * Walks every registered route of a ready app: each declares an access rule, what it owns (the object its path names)
 * and what it audits; the open ones are exactly those listed; and the walk saw every route the router holds.
 */
export function walkRoutes(app: FastifyInstance, rules: WalkRules): void {
  const routes = declaredRoutes(app);
  assert.ok(routes.length > 0, 'no route was collected');
  for (const method of new Set(routes.map((r) => r.method))) {
    const walked = new Set(routes.filter((r) => r.method === method).map((r) => r.url.replace(/(.)\/$/, '$1'))).size;
    assert.equal(walked, printedPaths(app, method).size, `${method} routes walked vs the router's`);
  }
  const undeclared = routes
    .map((route) => ({ route, found: faults(route, rules) }))
    .filter(({ found }) => found.length > 0)
    .map(({ route, found }) => `${route.method} ${route.url}: ${found.join(', ')}`);
  assert.deepEqual(undeclared, [], 'routes without their declarations');
  const open = routes
    .filter((r) => r.access !== undefined && 'open' in r.access && r.method !== 'HEAD')
    .map((r) => `${r.method} ${r.url}`);
  assert.deepEqual(open.sort(), [...rules.open].sort(), 'routes open to all');
}

/** An object of the probed tenant, of one kind the app's paths name, and one of that kind that does not exist. */
export interface ProbedKind {
  /** The path's parameters naming the tenant's object. */
  theirs: Record<string, string>;
  /** The same parameters naming nothing. */
  missing: Record<string, string>;
  /** What the entry of a refusal names: its workflow, batch, or an id its action ends with (`…:<id>`). */
  recorded(params: Record<string, string>): { workflowId?: string; batchId?: string; actionEnds?: string };
}

/** What a probe of every route whose path names an object needs of the app under test. */
export interface Probe {
  /** The kinds of object, by the `owns` their routes declare. */
  kinds: Record<string, ProbedKind>;
  /** The body each `METHOD /path` sends, one its validation takes (a route with a body and none here fails). */
  bodies: Record<string, unknown>;
  /** Parameters of the paths that name no object (`flowRunId`). */
  otherParams?: Record<string, string>;
  /** Sends one request as the prober; undefined body: none. */
  send(method: string, url: string, body: unknown): Promise<{ statusCode: number; body: string }>;
  /** Every entry of the prober, oldest first. */
  entries(): Promise<readonly AuditEntry[]>;
  /** The tenant the probed objects belong to. */
  tenant: string;
  /** The answers to the tenant's object and to the missing one are the same, ids aside (the console's differ by CSRF token). */
  sameAnswer?(theirs: string, missing: string, params: { theirs: string[]; missing: string[] }): boolean;
}

/** `bytes` random bytes in hex (ids of the shapes the apps take). */
export const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * The kinds both apps' paths name alike: a verification (its workflow), a batch, a patient and a coverage change, each
 * the tenant's (`theirs`) and one that does not exist.
 */
export function sharedKinds(theirs: { workflowId: string; batchId: string; patientId: string }): Probe['kinds'] {
  const missingPatient = hex(16);
  const byWorkflow = (id: (p: Record<string, string>) => string) => (p: Record<string, string>) => ({
    workflowId: id(p),
  });
  return {
    workflow: {
      theirs: { workflowId: theirs.workflowId },
      missing: { workflowId: `verification-${randomUUID()}` },
      recorded: byWorkflow((p) => p.workflowId!),
    },
    batch: {
      theirs: { batchId: theirs.batchId },
      missing: { batchId: `absent-${hex(8)}` },
      recorded: (p) => ({ batchId: p.batchId! }),
    },
    patient: {
      theirs: { patientId: theirs.patientId },
      missing: { patientId: `pt_${missingPatient}` },
      recorded: byWorkflow((p) => patientWorkflowId(p.patientId!)),
    },
    'coverage-change': {
      theirs: { changeId: `chg_${theirs.patientId.slice('pt_'.length)}_${hex(8)}` },
      missing: { changeId: `chg_${missingPatient}_${hex(8)}` },
      recorded: byWorkflow((p) => patientOfChange(p.changeId!)),
    },
  };
}

/** The two answers are the same once each side's ids (and what `stable` takes out) are set aside. */
export const sameApartFromIds =
  (stable: (text: string) => string = (text) => text) =>
  (mine: string, missing: string, ids: { theirs: string[]; missing: string[] }) =>
    ids.theirs.reduce((text, id) => text.replaceAll(id, '<id>'), stable(mine)) ===
    ids.missing.reduce((text, id) => text.replaceAll(id, '<id>'), stable(missing));

const pathOf = (url: string, params: Record<string, string>) =>
  url.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? `:${name}`));

/**
 * The scripted probe of another tenant's ids (issue 61, decision 84): every route of the app whose path names an
 * object, tried on the tenant's object and on one that does not exist. Each answer is the 404 a missing object gets,
 * and each attempt leaves exactly one entry: `denied` with the object's tenant and ids, or `not-found` with no tenant.
 * Returns the routes probed; fails naming every route that did otherwise.
 */
export async function probeObjectRoutes(app: FastifyInstance, probe: Probe): Promise<string[]> {
  const routes = declaredRoutes(app).filter(
    (r) => r.method !== 'HEAD' && r.owns !== undefined && r.owns in probe.kinds,
  );
  const faults: string[] = [];
  const probed: string[] = [];
  for (const route of routes) {
    const name = `${route.method} ${route.url}`;
    const kind = probe.kinds[route.owns!]!;
    const body = probe.bodies[name];
    const answers: string[] = [];
    for (const [which, params] of [
      ['theirs', { ...probe.otherParams, ...kind.theirs }],
      ['missing', { ...probe.otherParams, ...kind.missing }],
    ] as const) {
      const before = (await probe.entries()).length;
      const answer = await probe.send(route.method, pathOf(route.url, params), body);
      const added = (await probe.entries()).slice(before);
      answers.push(answer.body);
      if (answer.statusCode !== 404)
        faults.push(`${name} (${which}): ${answer.statusCode} ${answer.body.slice(0, 120)}`);
      if (added.length !== 1) {
        faults.push(`${name} (${which}): ${added.length} entries`);
        continue;
      }
      const [entry] = added as [AuditEntry];
      const expected = kind.recorded(params);
      const got = {
        outcome: entry.outcome,
        tenant: entry.tenant,
        workflowId: entry.workflowId ?? undefined,
        batchId: entry.batchId ?? undefined,
        actionEnds: expected.actionEnds !== undefined && entry.action.endsWith(`:${expected.actionEnds}`),
      };
      const want = {
        outcome: which === 'theirs' ? 'denied' : 'not-found',
        tenant: which === 'theirs' ? probe.tenant : null,
        workflowId: expected.workflowId,
        batchId: expected.batchId,
        actionEnds: expected.actionEnds !== undefined,
      };
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        faults.push(`${name} (${which}): ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
      }
    }
    const values = (params: Record<string, string>) => Object.values(params);
    if (
      probe.sameAnswer &&
      !probe.sameAnswer(answers[0]!, answers[1]!, { theirs: values(kind.theirs), missing: values(kind.missing) })
    ) {
      faults.push(`${name}: the answer to the tenant's object differs from a missing one's`);
    }
    probed.push(name);
  }
  assert.deepEqual(faults, [], 'routes whose refusal was not answered as a missing object, or not recorded once');
  return probed;
}
