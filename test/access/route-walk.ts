import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { declaredRoutes, type DeclaredRoute, type RouteAccess } from '../../src/access/route-declarations.js';

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
