import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Client } from '@temporalio/client';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { variables, type Config } from '../../src/config.js';
import { temporalReachable } from '../../src/health/readiness.js';
import { HEALTH_PATHS, healthRoutes } from '../../src/health/routes.js';
import { countHttpRequests } from '../../src/metrics/http-metrics.js';
import { logEachRequest } from '../../src/request-log.js';
import type { Logger } from '../../src/logging.js';
import type { BatchTiming } from '../../workflows/batch/batch.js';
import type { Timing } from '../../workflows/shared/timing.js';
import { authenticate, type IntakeAccess } from './access.js';
import { requireIntakeApiKey } from './api-key.js';
import { auditAnswered } from './audit.js';
import { answerError, answerFrameworkError, MAX_PATH_SEGMENT } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { methodsOfPaths } from './method-not-allowed.js';
import { checkOwned } from './owned.js';
import { declareRoutes, withLastPreHandler } from '../../src/access/route-declarations.js';
import { intakeRouteRules } from './route-rules.js';
import type { IntakeApp, IntakeDeps } from './deps.js';
import { intakeOpenApiOptions } from './openapi.js';
import { appointmentUploadRoutes } from './routes/appointment-uploads.js';
import { appointmentRoutes } from './routes/appointments.js';
import { referenceOptions } from './reference.js';
import { batchRoutes } from './routes/batches.js';
import { patientRoutes } from './routes/patients.js';
import { cancelRoute } from './routes/cancel.js';
import { coverageChangeRoutes } from './routes/coverage-changes.js';
import { requireEvents } from './event-access.js';
import { eventEndpointActionRoutes } from './routes/event-endpoint-actions.js';
import { eventEndpointRoutes } from './routes/event-endpoints.js';
import { listRoute } from './routes/list.js';
import { openApiRoute } from './routes/openapi.js';
import { reviewRoute } from './routes/review.js';
import { runInputRoute } from './routes/run-input.js';
import { searchRoute } from './routes/search.js';
import { startRoute } from './routes/start.js';
import { statusRoute } from './routes/status.js';
import { refuseUndeclared, strictValidatorCompiler } from './validation.js';

export interface IntakeApiOptions {
  config: Pick<Config, 'intake' | 'tenants'>;
  /** The process's one Temporal client; no request opens a connection of its own. */
  client: Client;
  /** Task queue of the verification workflows. */
  taskQueue: string;
  logger: Logger;
  /** Waiting times of the verifications it starts (tests shorten them). */
  timing?: Partial<Timing>;
  /** How the batches it submits pace themselves (tests shorten it). */
  batchTiming?: Partial<BatchTiming>;
  /** `/readyz`'s deadline for the Temporal server (`READYZ_TIMEOUT_MS`; default its default). */
  readyTimeoutMs?: number;
  /**
   * Intake clients and the audit trail (docs/operating/access-and-audit.md), from DATABASE_URL; without clients,
   * INTAKE_API_KEY is required.
   */
  access?: Omit<IntakeAccess, 'apiKey'>;
  /**
   * Event endpoints, their log and the dispatchers (docs/integrating/events.md), from DATABASE_URL; without them their
   * routes 503.
   */
  events?: IntakeDeps['events'];
  /** The patient search index's keys (src/blind-index); without them nothing is indexed and search answers 503. */
  blindIndex?: IntakeDeps['blindIndex'];
  /** Patients and appointments (issue 35), with PATIENT_ID_KEY; without it their routes answer 503. */
  patients?: IntakeDeps['patients'];
  /** Payer names (src/payers), for batches' results; without them a results row names its payer by id. */
  payers?: IntakeDeps['payers'];
}

/**
 * The intake HTTP API (docs/integrating/intake-api.md): start verifications, read their status, list them by stage,
 * supply run input, decide v1 verifications that need review, cancel. Routes declare their schemas (validation,
 * serialisation and the OpenAPI document at `/docs/openapi.json`, all from one declaration). Every route but the
 * document needs the API key. Returns the app; the caller listens.
 */
export function createIntakeApi(options: IntakeApiOptions): FastifyInstance {
  const { config, client, taskQueue, logger } = options;
  const apiKey = options.access?.clients ? config.intake.apiKey : requireIntakeApiKey(config.intake);
  const access: IntakeAccess = { ...options.access, ...(apiKey !== undefined ? { apiKey } : {}) };
  const deps: IntakeDeps = {
    access,
    client,
    taskQueue,
    timeoutMs: config.intake.temporalTimeoutMs,
    tenantWeights: config.tenants.weights,
    ...(options.timing ? { timing: options.timing } : {}),
    ...(options.batchTiming ? { batchTiming: options.batchTiming } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.blindIndex ? { blindIndex: options.blindIndex } : {}),
    // A patient is booked with the search index's hashes: the same keys as every other start of the API.
    ...(options.patients
      ? {
          patients: {
            ...(options.blindIndex ? { blindIndex: options.blindIndex } : {}),
            ...(options.payers ? { payerNames: options.payers } : {}),
            ...options.patients,
          },
        }
      : {}),
    ...(options.payers ? { payers: options.payers } : {}),
  };
  // Typed as Fastify's base logger so the app keeps Fastify's default instance type.
  const loggerInstance: FastifyBaseLogger = logger.child({ component: 'intake-api' });
  // One line per request (logEachRequest below), not Fastify's two.
  const app: IntakeApp = Fastify({
    loggerInstance,
    trustProxy: config.intake.trustProxy,
    logController: new LogController({ disableRequestLogging: true }),
    // Every id a route's schema takes is routed, so the schema refuses a long one by name; a longer path segment is a
    // 400 in the API's shape (Fastify's default answer, a 414, quotes the path).
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  const undeclaredMethods = methodsOfPaths(app);
  // JSON only (and the batch routes' own upload types): a text/plain body would reach the routes as a string and be
  // refused as a malformed object, where the truth is that the media type is not one this API takes.
  app.removeContentTypeParser('text/plain');
  // Its own JSON parser: an empty body, text that is not JSON and a prototype key are each refused in their own words.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request, body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // Strict by default, for every route, later ones included: a field a route does not know is a 400 naming it.
  app.setValidatorCompiler(strictValidatorCompiler);
  app.addHook('preValidation', refuseUndeclared);
  app.setSerializerCompiler(serializerCompiler);

  // Every route declares its access, the object it owns and its audit (route-rules.ts): the app does not start with
  // one that does not. The hook that loads and checks the owned object runs last before the handler.
  declareRoutes(
    app,
    intakeRouteRules((route) => withLastPreHandler(route, checkOwned(deps))),
  );
  // One renderer for every error, thrown by a hook or a handler (errors.ts).
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));
  app.addHook('onRequest', authenticate(access));
  app.addHook('onRequest', undeclaredMethods.hook);
  app.addHook('onSend', auditAnswered(access));
  countHttpRequests(app, 'intake');
  logEachRequest(app, 'intake request', HEALTH_PATHS);
  const readyTimeoutMs = options.readyTimeoutMs ?? Number(variables.READYZ_TIMEOUT_MS.default);
  healthRoutes(app, { ready: () => temporalReachable(client.connection, readyTimeoutMs) });

  // Registered before the routes, so that it sees each of them; the routes form one plugin, loaded after it.
  void app.register(swagger, intakeOpenApiOptions());
  void app.register(swaggerUi, referenceOptions());
  void app.register((routes: IntakeApp, _options, done) => {
    openApiRoute(routes);
    startRoute(routes, deps);
    listRoute(routes, deps);
    statusRoute(routes, deps);
    searchRoute(routes, deps);
    runInputRoute(routes, deps);
    reviewRoute(routes, deps);
    cancelRoute(routes, deps);
    batchRoutes(routes, deps);
    patientRoutes(routes, deps);
    appointmentRoutes(routes, deps);
    appointmentUploadRoutes(routes, deps);
    coverageChangeRoutes(routes, deps);
    // Event endpoints live in the database: without it, one hook answers all of them 503.
    void routes.register((events: IntakeApp, _eventOptions, eventsDone) => {
      events.addHook('onRequest', requireEvents(deps));
      eventEndpointRoutes(events, deps);
      eventEndpointActionRoutes(events, deps);
      eventsDone();
    });
    done();
  });
  return app;
}
