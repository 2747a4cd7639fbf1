import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { SandboxConfig } from './config.js';
import { INVALID_REQUEST } from '../src/contract/index.js';
import type { SandboxContext } from './context.js';
import { DiscoveryLifecycle } from './discoveries.js';
import { Faults } from './faults.js';
import { serviceGuard, tokenGuard } from './guard.js';
import { IdempotencyStore } from './idempotency.js';
import { pathIdGuard, ROUTER_MAX_PARAM_LENGTH } from './path-ids.js';
import { RateLimiter } from './rate-limit.js';
import { internalError, invalidRequest, notFound } from './replies.js';
import { lookupRoutes } from './routes/lookups.js';
import { providerGroupRoutes } from './routes/provider-groups.js';
import { runRoutes } from './routes/runs.js';
import { sandboxControlRoutes } from './routes/sandbox-control.js';
import { tokenRoutes } from './routes/token.js';
import { verificationV1Routes } from './routes/verifications-v1.js';
import { verificationV2Routes } from './routes/verifications-v2.js';
import { webhookRoutes } from './routes/webhooks.js';
import { SandboxState } from './state.js';
import { StatsRecorder } from './stats.js';
import { TokenIssuer } from './tokens.js';
import { WebhookDispatcher } from './webhooks.js';

export type { Stats } from './stats.js';

export interface Sandbox {
  app: FastifyInstance;
  /** Starts listening on the configured host and port (0 = a free port); resolves to the base URL. */
  listen(): Promise<string>;
  /** Stops timers and webhook deliveries, then the server. */
  close(): Promise<void>;
}

function createContext(config: SandboxConfig, random?: () => number): SandboxContext {
  const state = new SandboxState();
  const stats = new StatsRecorder();
  const faults = new Faults(config.faults, random);
  const webhooks = new WebhookDispatcher(config, state, faults, stats);
  return {
    config,
    state,
    stats,
    faults,
    webhooks,
    tokens: new TokenIssuer(config, config.tokenTtlSeconds),
    limiter: new RateLimiter({ ratePerSecond: config.ratePerSecond, burst: config.rateBurst }),
    idempotency: new IdempotencyStore(),
    discoveries: new DiscoveryLifecycle(state, webhooks, config.discoveryDelayMs),
  };
}

export interface SandboxOptions {
  /** Where the injected faults draw their chances (default `Math.random`); a test passes a fixed sequence. */
  random?: () => number;
}

/** A local imitation of the eligibility service (docs/eligibility-service.openapi.json) with in-memory state. */
export async function createSandbox(config: SandboxConfig, options: SandboxOptions = {}): Promise<Sandbox> {
  const ctx = createContext(config, options.random);
  const app = Fastify({
    // Request lines only (method, url, status): bodies carry patient data and are never logged.
    logger: config.logRequests ? { level: 'info' } : false,
    // A URL whose percent-encoding does not decode is an invalid request, answered in the spec's shape.
    frameworkErrors: (_error, _request, reply) => {
      void invalidRequest(reply);
    },
    routerOptions: { maxParamLength: ROUTER_MAX_PARAM_LENGTH },
  });
  app.decorateRequest('clientId', '');
  app.addHook('preHandler', pathIdGuard);

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) return internalError(reply);
    // Unparseable JSON and other body problems name the body itself, as a root-level validation error would.
    if (status === 400) return invalidRequest(reply, 'body');
    return reply.code(status).send({ error: INVALID_REQUEST });
  });
  app.setNotFoundHandler((_request, reply) => notFound(reply));

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/sandbox/')) ctx.stats.recordCall(request.method, route ?? '(no route)', reply.statusCode);
    done();
  });

  await app.register((scope, _opts, done) => {
    scope.addHook('onRequest', tokenGuard(ctx));
    tokenRoutes(scope, ctx);
    done();
  });
  await app.register((scope, _opts, done) => {
    scope.addHook('onRequest', serviceGuard(ctx));
    verificationV2Routes(scope, ctx);
    verificationV1Routes(scope, ctx);
    lookupRoutes(scope, ctx);
    providerGroupRoutes(scope, ctx);
    runRoutes(scope, ctx);
    webhookRoutes(scope, ctx);
    done();
  });
  sandboxControlRoutes(app, ctx, () => {
    ctx.discoveries.cancelTimers();
    ctx.webhooks.cancelAll();
    ctx.state.reset();
    ctx.faults.reset();
    ctx.stats.reset();
    ctx.tokens.revokeAll();
    ctx.limiter.reset();
    ctx.idempotency.clear();
  });
  await app.ready();

  return {
    app,
    listen: () => app.listen({ host: config.host, port: config.port }),
    close: async () => {
      ctx.discoveries.cancelTimers();
      ctx.webhooks.cancelAll();
      await app.close();
    },
  };
}
