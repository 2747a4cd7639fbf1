import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { OperatorRole } from './operators.js';
import type { Scope } from './scopes.js';

/**
 * What each route of the intake API and the console declares in its Fastify `config` (docs/developing/architecture.md,
 * decision 75): who may call it, the object its path names (whose tenant the wall checks before the handler runs) and
 * what its audit entry records. The apps' hooks apply the declarations; a route without them does not start.
 */

/**
 * Who may call a route: an intake client holding `scope`, a signed-in person of at least `role` (`to`: what the role
 * lets them do, said when a lesser one is refused), or anyone (`open`, saying why that is safe).
 */
export type RouteAccess = { scope: Scope } | { role: OperatorRole; to?: string } | { open: string };

/**
 * The action of a route's audit entry (a name, or one read from the request, as a review's decision), or
 * `{ none: why }` for a route that discloses and changes nothing.
 */
export type RouteAudit = string | ((request: FastifyRequest) => string) | { none: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call it; checked before anything of the request is read. */
    access?: RouteAccess;
    /** The kind of object its path names (each app lists its kinds), `own-tenant` or `none`. */
    owns?: string;
    /** What its audit entry records, or why it has none. */
    audit?: RouteAudit;
  }
}

/** One route as it declared itself: what the route-walk tests read. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  owns: string | undefined;
  audit: RouteAudit | undefined;
}

/** Routes other code registers (probes, static assets), declared by path since their registration cannot say so. */
export interface OpenElsewhere {
  matches(url: string, route: RouteOptions): boolean;
  why: string;
}

export interface RouteRules {
  /** The kinds of object this app's routes may own, besides `own-tenant` and `none`. */
  owned: readonly string[];
  /** Whether an access is one this app knows (the intake API: scopes; the console: roles). */
  knows(access: RouteAccess): boolean;
  openElsewhere: readonly OpenElsewhere[];
  /** Adds the hook that enforces the declarations to the route's own hooks (they run after the scope's). */
  apply(route: RouteOptions): void;
}

const NAMELESS = ['own-tenant', 'none'];

/** What is wrong with a route's declarations for these rules, or undefined when it declares all three, well formed. */
export function declarationProblem(
  rules: Pick<RouteRules, 'owned' | 'knows'>,
  route: Omit<DeclaredRoute, 'method' | 'url'>,
) {
  const { access, owns, audit } = route;
  const kinds = [...rules.owned, ...NAMELESS];
  if (access === undefined) return 'declares no access (config.access)';
  if ('open' in access ? !access.open : !rules.knows(access)) return 'declares an access this app does not know';
  if (owns === undefined || !kinds.includes(owns))
    return `declares no owned object (config.owns: ${kinds.join(' | ')})`;
  if ('open' in access && owns !== 'none') return "is open to all yet owns a tenant's object";
  if (audit === undefined) return 'declares no audit (config.audit: an action, or {none: why})';
  if (typeof audit === 'string' && audit === '') return 'declares an empty audit action';
  if (typeof audit === 'object' && !audit.none) return 'declares no audit without saying why';
  return undefined;
}

const routes = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every route of the app as it declared itself, in the order registered (HEAD routes of GET ones included). */
export const declaredRoutes = (app: FastifyInstance): readonly DeclaredRoute[] => routes.get(app) ?? [];

/**
 * Every route must declare its access, its owned object and its audit (`onRoute`, added before any route): one that
 * does not stops the app from starting, naming it, so a new route cannot forget the tenant wall or its audit entry.
 */
export function declareRoutes(app: FastifyInstance, rules: RouteRules): void {
  const seen: DeclaredRoute[] = [];
  routes.set(app, seen);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    const elsewhere = route.config?.access === undefined && rules.openElsewhere.find((o) => o.matches(url, route));
    if (elsewhere) {
      route.config = { ...route.config, access: { open: elsewhere.why }, owns: 'none', audit: { none: elsewhere.why } };
    }
    const { access, owns, audit } = route.config ?? {};
    const methods = [route.method].flat();
    for (const method of methods) seen.push({ method, url, access, owns, audit });
    const problem = declarationProblem(rules, { access, owns, audit });
    if (problem) throw new Error(`route ${methods.join(',')} ${url} ${problem}`);
    rules.apply(route);
  });
}

/** The route's own preHandlers, then `last`. */
export function withLastPreHandler(route: RouteOptions, last: NonNullable<RouteOptions['preHandler']>): void {
  const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
  route.preHandler = [...own, ...[last].flat()];
}

/** The action a route's entry records for this request, when it declares one. */
export function declaredAction(request: FastifyRequest): string | undefined {
  const declared = request.routeOptions.config.audit;
  if (typeof declared === 'string') return declared;
  return typeof declared === 'function' ? declared(request) : undefined;
}
