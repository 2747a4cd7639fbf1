import type { FastifyInstance } from 'fastify';
import { METRICS_CONTENT_TYPE, scrape } from '../metrics/registry.js';

export const HEALTH_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

export interface HealthRoutesOptions {
  /** Ready to serve: for an edge, the Temporal server answers (`temporalReachable`). */
  ready(): Promise<boolean>;
  /** What `/metrics` serves (default: this process's registry); the worker adds the Temporal SDK's scrape. */
  metrics?: () => Promise<string>;
}

/**
 * `/healthz` (the process is alive and serving: 200 always), `/readyz` (200 when it can do its work, else 503, so a
 * load balancer or orchestrator stops sending traffic while Temporal is away) and `/metrics` (Prometheus). None of
 * them needs credentials and none shows anything but counts.
 */
export function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): void {
  const metrics = options.metrics ?? scrape;
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) =>
    (await options.ready())
      ? reply.send({ status: 'ready' })
      : reply.code(503).send({ status: 'unavailable', reason: 'temporal_unreachable' }),
  );
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(METRICS_CONTENT_TYPE).send(await metrics()),
  );
}
