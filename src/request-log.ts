import type { FastifyInstance } from 'fastify';

/**
 * One line per request, written when it is answered: its method, route template (never the URL, which carries
 * workflow and caller ids), status and `ms`. It replaces Fastify's two lines per request (`incoming request` then
 * `request completed`), which the app turns off (`disableRequestLogging`). The `quiet` routes, probes and scrapes that
 * come every few seconds all day, are logged at `debug`.
 */
export function logEachRequest(app: FastifyInstance, message: string, quiet: readonly string[] = []): void {
  const quietRoutes: ReadonlySet<string> = new Set(quiet);
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const line = { method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (quietRoutes.has(route)) request.log.debug(line, message);
    else request.log.info(line, message);
    done();
  });
}
