import type { FastifyInstance } from 'fastify';

interface Operation {
  responses?: Record<string, unknown>;
}
type Paths = Record<string, Record<string, Operation>>;

/** A Fastify route path (`/batches/:batchId`) as the OpenAPI document writes it (`/batches/{batchId}`). */
export const documentedPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Watches every answer of an intake API (add it before the app is ready): `undocumented()` lists each answer whose
 * route and status the API's own OpenAPI document does not name, as `METHOD path status`. Routes the document hides
 * (health, metrics, the reference page) and answers of no route (404 for an unknown path) are not its business.
 */
export function watchAnswers(api: FastifyInstance): { undocumented: () => string[] } {
  const answered = new Set<string>();
  api.addHook('onResponse', (request, reply, done) => {
    const url = request.routeOptions.url;
    if (url !== undefined && request.method !== 'HEAD') answered.add(`${request.method} ${url} ${reply.statusCode}`);
    done();
  });
  return {
    undocumented: () => {
      const paths = (api.swagger() as { paths: Paths }).paths;
      return [...answered].filter((entry) => {
        const [method, url, status] = entry.split(' ') as [string, string, string];
        const operation = paths[documentedPath(url)]?.[method.toLowerCase()];
        const hidden = !(documentedPath(url) in paths);
        return !hidden && operation?.responses?.[status] === undefined;
      });
    },
  };
}
