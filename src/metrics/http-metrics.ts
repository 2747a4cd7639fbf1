import type { FastifyInstance } from 'fastify';
import { recordHttpRequest } from './project-metrics.js';

/**
 * Counts every request `app` answers, labelled by its route template (`request.routeOptions.url`, e.g.
 * `/verifications/:workflowId`): a URL would carry workflow and caller ids. A request no route matched is `unmatched`.
 */
export function countHttpRequests(app: FastifyInstance, server: string): void {
  app.addHook('onResponse', (request, reply, done) => {
    recordHttpRequest({
      server,
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}
