import type { RouteOptions } from 'fastify';
import type { OpenElsewhere, RouteRules } from '../../src/access/route-declarations.js';
import { isScope } from '../../src/access/scopes.js';
import { HEALTH_PATHS } from '../../src/health/routes.js';
import { REFERENCE_PATH } from './reference.js';

/**
 * The objects an intake route's path may name (`config.owns`), each loaded and its tenant checked before the handler
 * runs (`owned.ts`); besides them `own-tenant` (it starts or lists within the caller's tenant) and `none` (nobody's).
 */
export const OWNED = ['workflow', 'batch', 'patient', 'appointment', 'coverage-change', 'endpoint'] as const;
export type Owned = (typeof OWNED)[number] | 'own-tenant' | 'none';

const hidden = (route: RouteOptions) => route.schema?.hide === true;

/**
 * Routes other code registers and hides from the document: the probes of src/health, and the reference page of
 * @fastify/swagger-ui with its assets.
 */
const OPEN_ELSEWHERE: readonly OpenElsewhere[] = [
  {
    matches: (url) => (HEALTH_PATHS as readonly string[]).includes(url),
    why: 'probes and the metrics scrape: counts and states, nothing of any caller',
  },
  {
    matches: (url, route) => hidden(route) && (url === REFERENCE_PATH || url.startsWith(`${REFERENCE_PATH}/`)),
    why: "the reference page and its assets: the API's shape, nothing of any caller",
  },
];

/** The intake API's rules: access by scope; `apply` adds the wall's hook (owned.ts) after the route's own. */
export const intakeRouteRules = (apply: RouteRules['apply']): RouteRules => ({
  owned: OWNED,
  knows: (access) => 'scope' in access && isScope(access.scope),
  openElsewhere: OPEN_ELSEWHERE,
  apply,
});
