import { OPERATOR_ROLES } from '../../src/access/operators.js';
import type { OpenElsewhere, RouteRules } from '../../src/access/route-declarations.js';
import { HEALTH_PATHS } from '../../src/health/routes.js';

/**
 * The objects a console route's path may name (`config.owns`), each found and its tenant checked before the handler
 * runs (`owned.ts`); besides them `own-tenant` (a list, search or form within the operator's tenants) and `none`.
 */
export const OWNED = ['workflow', 'batch', 'patient', 'coverage-change', 'endpoint', 'schedule'] as const;
export type Owned = (typeof OWNED)[number] | 'own-tenant' | 'none';

export const ASSETS_PREFIX = '/assets/';

/** The probes of src/health and the page's own style and script (@fastify/static): nothing of anyone. */
const OPEN_ELSEWHERE: readonly OpenElsewhere[] = [
  {
    matches: (url) => (HEALTH_PATHS as readonly string[]).includes(url),
    why: 'probes and the metrics scrape: counts and states, nothing of any operator or patient',
  },
  { matches: (url) => url.startsWith(ASSETS_PREFIX), why: "the pages' own style and script" },
];

/** The console's rules: access by role; `apply` adds the wall's hook (owned.ts) after the route's own (CSRF first). */
export const consoleRouteRules = (apply: RouteRules['apply']): RouteRules => ({
  owned: OWNED,
  knows: (access) => 'role' in access && OPERATOR_ROLES.includes(access.role),
  openElsewhere: OPEN_ELSEWHERE,
  apply,
});
