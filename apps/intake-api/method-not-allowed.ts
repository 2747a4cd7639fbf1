import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A route's path (`/batches/:batchId`, `/docs/*`) as a regular expression over a request's path. */
function pathPattern(url: string): RegExp {
  const escaped = url.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:[A-Za-z0-9_]+/g, '[^/]+').replace(/\*/g, '.*')}$`);
}

/**
 * 405 with `Allow` for a method a known path does not take (TRACE, QUERY, PUT on a POST route…), in the API's error
 * shape, where Fastify would answer 404, try to read the body first, or hand a static path (`/appointments/uploads`)
 * to a route of another method that takes an id there. Call before the routes are added: it learns
 * them as they are; `hook` is an `onRequest` hook, added after authentication so a caller without a key gets 401.
 */
export function methodsOfPaths(app: FastifyInstance) {
  const methods = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const entry = methods.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    methods.set(route.url, entry);
  });
  const allowed = (path: string): string[] =>
    [...methods.values()].filter((entry) => entry.pattern.test(path)).flatMap((entry) => [...entry.methods]);

  return {
    hook: (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const path = request.url.split('?')[0]!;
      // A static path is its own resource, as the router sees it first: `/patients/lookup` is not a patient id.
      const fixed = methods.get(path);
      const routed = request.routeOptions.url;
      if (routed !== undefined && (routed === path || fixed === undefined)) return done();
      const allow = [...new Set(fixed ? fixed.methods : allowed(path))].sort();
      if (allow.length === 0) return done();
      void reply
        .code(405)
        .header('allow', allow.join(', '))
        .send({ error: 'method_not_allowed', message: `this path takes ${allow.join(', ')}` });
    },
  };
}
