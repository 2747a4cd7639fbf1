import type { Worker } from '@temporalio/worker';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { temporalReachable, type TemporalProbe } from '../src/health/readiness.js';
import { healthRoutes } from '../src/health/routes.js';
import type { Logger } from '../src/logging.js';
import { countHttpRequests } from '../src/metrics/http-metrics.js';
import { setGovernedRate } from '../src/metrics/project-metrics.js';
import { scrape } from '../src/metrics/registry.js';

export interface WorkerHttpOptions {
  worker: Pick<Worker, 'getState'>;
  connection: TemporalProbe;
  /** The SDK runtime's Prometheus scrape (workers/worker-runtime.ts). */
  coreMetricsUrl: string;
  readyTimeoutMs: number;
  logger: Logger;
  /**
   * The task queue's dispatch rate as the governor last set it (a describe call, not a billed action), read on each
   * scrape so that every worker reports it, whichever one runs the governor; undefined = none set.
   */
  governedRate?: () => Promise<number | undefined>;
}

/**
 * The SDK's scrape and the project's, as one: Prometheus's text format is a list of metric families, and the two
 * share no name (the SDK's start with `temporal_`, the project's with `eligibility_`, Node's with `process_`/`nodejs_`).
 * When the SDK's exporter does not answer, the project's metrics are still served and the gap is logged.
 */
async function mergedScrape(options: WorkerHttpOptions, logger: Logger): Promise<string> {
  const { coreMetricsUrl, governedRate } = options;
  const rate = await governedRate?.().catch((err: Error) => {
    logger.warn({ err: { message: err.message } }, "the task queue's governed rate could not be read");
    return undefined;
  });
  if (rate !== undefined) setGovernedRate(rate);
  const own = await scrape();
  try {
    const response = await fetch(coreMetricsUrl, { signal: AbortSignal.timeout(2000) });
    if (!response.ok) throw new Error(`status ${response.status}`);
    return `${(await response.text()).trimEnd()}\n${own}`;
  } catch (err) {
    logger.warn({ err: { message: (err as Error).message } }, "the Temporal SDK's metrics could not be read");
    return own;
  }
}

/**
 * The worker's small HTTP server: `/metrics` (the SDK's metrics and the project's, one scrape), `/healthz`, and
 * `/readyz` — ready while the worker runs and the Temporal server answers.
 */
export function createWorkerHttp(options: WorkerHttpOptions): FastifyInstance {
  // Scrapes and probes come every few seconds: logging each (at info) would drown the worker's own lines.
  const logger = options.logger.child({ component: 'worker-http' }, { level: 'warn' });
  // Typed as Fastify's base logger so the app keeps Fastify's default instance type.
  const loggerInstance: FastifyBaseLogger = logger;
  const app = Fastify({ loggerInstance });
  countHttpRequests(app, 'worker');
  healthRoutes(app, {
    ready: async () =>
      options.worker.getState() === 'RUNNING' && (await temporalReachable(options.connection, options.readyTimeoutMs)),
    metrics: () => mergedScrape(options, logger),
  });
  return app;
}
