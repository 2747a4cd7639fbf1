import { fileURLToPath } from 'node:url';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { Client } from '@temporalio/client';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import { ClientAdmin } from '../../src/access/client-admin.js';
import type { IntakeClients } from '../../src/access/intake-clients.js';
import { OperatorAdmin } from '../../src/access/operator-admin.js';
import type { OperatorDirectory } from '../../src/access/operators.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import type { EventServices } from '../../src/events/services.js';
import { ConfigError, variables, type Config } from '../../src/config.js';
import { temporalReachable } from '../../src/health/readiness.js';
import { HEALTH_PATHS, healthRoutes } from '../../src/health/routes.js';
import { countHttpRequests } from '../../src/metrics/http-metrics.js';
import { logEachRequest } from '../../src/request-log.js';
import type { Logger } from '../../src/logging.js';
import { declareRoutes, withLastPreHandler } from '../../src/access/route-declarations.js';
import type { AdminDeps } from './admin.js';
import { authRoutes, guard } from './auth.js';
import { registerCsrf } from './csrf.js';
import { OidcClient } from './oidc-client.js';
import { oidcRoutes } from './oidc.js';
import { OperatorClients } from './operator-client.js';
import { parseOperators, type OperatorEntry } from '../../src/access/operator-passwords.js';
import { adminAuditPages } from './pages/admin-audit.js';
import { adminClientPages } from './pages/admin-clients.js';
import { adminOperatorPages } from './pages/admin-operators.js';
import { awaitingInputPages } from './pages/awaiting-input.js';
import { batchPages } from './pages/batches.js';
import { eventEndpointActionPages } from './pages/event-endpoint-actions.js';
import { eventEndpointPages } from './pages/event-endpoints.js';
import { needsReviewPages } from './pages/needs-review.js';
import { temporalUiPages } from './pages/temporal-ui.js';
import { verificationPages } from './pages/verification.js';
import { findPatientPages } from './pages/find-patient.js';
import { worklistPages } from './pages/worklists.js';
import { navCountsHook } from './nav-counts.js';
import { applyWall, hideAdminRoutes } from './owned.js';
import { recordRefusals } from './audit.js';
import { ASSETS_PREFIX, consoleRouteRules } from './route-rules.js';
import type { PayerNames } from '../../src/payers/payer-names.js';
import { patientPages } from './pages/patient.js';
import { coverageChangePages } from './pages/coverage-changes.js';
import { schedulePages } from './pages/schedules.js';
import { todayPages } from './pages/today.js';
import type { Store } from '../../src/store/database.js';
import type { BlindIndexKeys } from '../../src/blind-index/keys.js';
import { loadPatientIdKey } from '../../src/patients/id-key.js';
import type { Visits } from '../../src/visits/index.js';
import { patientsPages } from './pages/patients.js';
import { registerSession } from './session.js';
import { ConsoleSignInThrottle } from './sign-in-throttle.js';
import type { SignInLimits } from '../../src/access/sign-in-throttle.js';
import { html } from './views/html.js';
import { page } from './views/layout.js';

const ASSETS = fileURLToPath(new URL('./assets/', import.meta.url));

export interface ConsoleOptions {
  config: Pick<Config, 'console' | 'temporal' | 'codec'> & Partial<Pick<Config, 'patients'>>;
  /** The process's one Temporal client (its converter decrypts payloads); no request opens a connection of its own. */
  client: Client;
  logger: Logger;
  /** Deadline of the Temporal calls of one page (default 30 s). */
  timeoutMs?: number;
  /** Deadline of `/readyz`'s call to Temporal (default READYZ_TIMEOUT_MS's). */
  readyTimeoutMs?: number;
  /** The audit trail (DATABASE_URL); without it nothing is recorded (tests, and a console with no database). */
  audit?: AuditTrail;
  /**
   * The operators kept in the database (DATABASE_URL), with their roles and tenants; looked up on every request.
   * Without it only CONSOLE_OPERATORS sign in (each an administrator of every tenant).
   */
  directory?: OperatorDirectory;
  /** The project's database, where sessions are kept for every console process; without it, in this one's memory. */
  sessions?: Store;
  /** Intake clients (DATABASE_URL), which administrators manage on `/admin/clients` (with the audit trail). */
  clients?: IntakeClients;
  /**
   * Tenants' event endpoints (DATABASE_URL), shown on `/event-endpoints` and changed there by administrators; without
   * them the page says events need the database.
   */
  events?: EventServices;
  /** The patient search index's keys (src/blind-index); without them the search by name or member id is off. */
  blindIndex?: BlindIndexKeys;
  /** Payer names from the service's payer endpoint, cached (`src/payers/payer-names.ts`); without them pages show payer ids. */
  payers?: PayerNames;
  /** The patients' copies (src/visits, DATABASE_URL): today's visits, and finding patients by name or member id. */
  visits?: Visits;
  /** PATIENT_ID_KEY; default the one `config.patients` names, loaded when a patient is first looked up by reference. */
  patientIdKey?: Buffer;
  /** Failed sign-ins allowed per name and per address (default SIGN_IN_LIMITS; tests shorten the windows). */
  signInLimits?: SignInLimits;
}

const READYZ_TIMEOUT_MS = Number(variables.READYZ_TIMEOUT_MS.default);

/**
 * The console refuses to start without a session key, and without operators: CONSOLE_OPERATORS, the operator
 * directory of the database (`options.directory`: DATABASE_URL is set), or the organisation's OpenID Connect provider
 * (OIDC_ISSUER, which needs OIDC_CLIENT_ID). There is no default for any of them.
 */
export function requireConsoleSecrets(config: Config['console'], options: { directory?: boolean } = {}) {
  const { issuer, clientId } = config.oidc;
  const problems: { variable: string; message: string }[] = [];
  if (issuer && !clientId) {
    problems.push({
      variable: 'OIDC_CLIENT_ID',
      message: 'required with OIDC_ISSUER (the client id the provider gave)',
    });
  }
  if (clientId && !issuer) {
    problems.push({ variable: 'OIDC_ISSUER', message: 'required with OIDC_CLIENT_ID (sign-in through it is off)' });
  }
  if (!config.operators && !options.directory && !issuer) {
    problems.push({
      variable: 'CONSOLE_OPERATORS',
      message:
        'required without DATABASE_URL or OIDC_ISSUER (`eligibility console-operator <name>` makes an entry; with a ' +
        'database, operators may live in its directory instead; with OIDC_ISSUER, they sign in through the provider)',
    });
  }
  if (!config.sessionSecret) {
    problems.push({
      variable: 'CONSOLE_SESSION_SECRET',
      message: 'required (at least 32 characters, e.g. `openssl rand -hex 32`)',
    });
  }
  if (problems.length > 0 || !config.sessionSecret) throw new ConfigError(problems);
  return {
    operators: config.operators ? parseOperators(config.operators) : new Map<string, OperatorEntry>(),
    sessionSecret: config.sessionSecret,
    oidc: issuer && clientId ? { ...config.oidc, issuer, clientId } : undefined,
  };
}

/** The patient id key, loaded once; a setting that cannot work is logged (by name) and leaves the lookup off. */
function patientIdKeyOf(options: ConsoleOptions, log: FastifyBaseLogger): () => Promise<Buffer | undefined> {
  const patients = options.config.patients;
  let loading: Promise<Buffer | undefined> | undefined;
  return () =>
    (loading ??= options.patientIdKey
      ? Promise.resolve(options.patientIdKey)
      : patients
        ? loadPatientIdKey(patients).catch((err: unknown) => {
            log.warn({ err: (err as Error).message }, 'patient id key unusable: patients are not found by reference');
            return undefined;
          })
        : Promise.resolve(undefined));
}

function errorPage(title: string, message: string): string {
  return page(
    { title },
    html`<p>${message}</p>
      <p><a href="/today">Back to the console</a></p>`,
  );
}

/**
 * The operator console (docs/operating/console.md): server-rendered pages for people who answer runs, decide reviews
 * and follow batches. Sign-in with the operator directory, CONSOLE_OPERATORS or the organisation's OpenID Connect
 * provider (`oidc.ts`), roles and tenants (`access.ts`), a session cookie, a CSRF token in every form, a content
 * security policy that allows this origin's own script and style only. Returns the app; the caller listens.
 */
export function createConsole(options: ConsoleOptions): FastifyInstance {
  const { config, client, logger } = options;
  const { operators, sessionSecret, oidc } = requireConsoleSecrets(config.console, { directory: !!options.directory });
  const sources = { operators, ...(options.directory ? { directory: options.directory } : {}) };
  const loggerInstance: FastifyBaseLogger = logger.child({ component: 'console' });
  // One line per request (logEachRequest below), not Fastify's two.
  const app = Fastify({
    loggerInstance,
    trustProxy: config.console.trustProxy,
    bodyLimit: 256 * 1024,
    logController: new LogController({ disableRequestLogging: true }),
  });

  const deps = {
    client,
    operators: new OperatorClients(client),
    timeoutMs: options.timeoutMs ?? 30_000,
    temporalUiUrl: config.temporal.uiUrl,
    namespace: config.temporal.namespace,
    audit: options.audit,
    ...(options.payers ? { payers: options.payers } : {}),
    ...(options.blindIndex ? { blindIndex: options.blindIndex } : {}),
    ...(options.visits ? { visits: options.visits } : {}),
    patientIdKey: patientIdKeyOf(options, loggerInstance),
  };
  const endpointDeps = { ...deps, ...(options.events ? { events: options.events } : {}) };
  // Every route declares its access, the object it owns and its audit (src/access/route-declarations.ts): the console
  // does not start with one that does not. The wall (owned.ts) runs last before the handler, after CSRF.
  declareRoutes(
    app,
    consoleRouteRules((route) => withLastPreHandler(route, applyWall(endpointDeps))),
  );

  void app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
  });
  void app.register(fastifyFormbody);
  registerSession(app, { ...config.console, sessionSecret }, options.sessions);
  registerCsrf(app);
  void app.register(fastifyStatic, { root: ASSETS, prefix: ASSETS_PREFIX, index: false, cacheControl: false });
  app.addHook('onRequest', guard(sources));
  app.addHook('onRequest', hideAdminRoutes);
  // Every refusal (403, 404) of a route, once, before its page leaves (audit.ts).
  app.addHook('onSend', recordRefusals(options.audit));
  // After the guard, which knows the operator: the worklists' counts for the navigation of the page.
  app.addHook('preHandler', navCountsHook(client));
  countHttpRequests(app, 'console');
  logEachRequest(app, 'console request', HEALTH_PATHS);
  healthRoutes(app, { ready: () => temporalReachable(client.connection, options.readyTimeoutMs ?? READYZ_TIMEOUT_MS) });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Only the code is logged: a parser's message may quote the body, which may hold patient data.
    request.log.warn({ code: error.code, status: error.statusCode }, 'console request failed');
    if (error.code?.startsWith('FST_CSRF')) {
      return reply
        .code(403)
        .type('text/html')
        .send(
          errorPage(
            'Form expired',
            'This form was not accepted (its security token is missing or old). Reload the page and try again.',
          ),
        );
    }
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return reply
      .code(status)
      .type('text/html')
      .send(
        errorPage(
          'Something went wrong',
          status < 500
            ? 'The request was not understood.'
            : 'Temporal did not answer in time, or the page failed. Try again in a moment.',
        ),
      );
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type('text/html').send(errorPage('Not found', 'There is no such page.')),
  );

  const trail = options.audit;
  // Changes to credentials and operators are recorded before they are reported: without the trail, none is offered.
  const adminDeps: AdminDeps = {
    ...(trail ? { audit: trail } : {}),
    ...(trail && options.clients ? { clients: new ClientAdmin(options.clients, trail) } : {}),
    ...(trail && options.directory ? { operators: new OperatorAdmin(options.directory, trail) } : {}),
  };
  void app.register((routes, _options, done) => {
    const home = { access: { role: 'viewer' }, owns: 'none', audit: { none: 'a redirect' } } as const;
    routes.get('/', { config: home }, (_request, reply) => reply.redirect('/today', 303));
    // Browsers ask for it on every page; no icon, and no 401 in their console for it.
    const icon = { access: { open: 'no icon' }, owns: 'none', audit: { none: 'an empty answer' } };
    routes.get('/favicon.ico', { config: icon }, (_request, reply) => reply.code(204).send());
    // Counted in the database beside the sessions, so that every console process refuses the same blocked names.
    const throttle = new ConsoleSignInThrottle(sessionSecret, {
      ...(options.sessions ? { store: options.sessions } : {}),
      ...(options.signInLimits ? { limits: options.signInLimits } : {}),
    });
    authRoutes(routes, sources, options.audit, oidc && { displayName: oidc.displayName }, throttle);
    if (oidc) oidcRoutes(routes, sources, new OidcClient(oidc), options.audit);
    todayPages(routes, deps);
    awaitingInputPages(routes, deps);
    needsReviewPages(routes, deps);
    batchPages(routes, deps);
    verificationPages(routes, deps);
    findPatientPages(routes, deps);
    worklistPages(routes, deps);
    patientPages(routes, deps);
    patientsPages(routes, deps);
    coverageChangePages(routes, deps);
    schedulePages(routes, deps);
    eventEndpointPages(routes, endpointDeps);
    const { tokenSecret, publicUrl } = config.codec.server;
    const passes = tokenSecret && { secret: tokenSecret, codecUrl: publicUrl, hours: config.console.sessionHours };
    temporalUiPages(routes, deps, passes || undefined, options.directory);
    // The administrators' pages (each declares `role: 'admin'`: anyone else gets the plain 404).
    adminClientPages(routes, adminDeps);
    adminOperatorPages(routes, adminDeps);
    adminAuditPages(routes, adminDeps);
    eventEndpointActionPages(routes, endpointDeps);
    done();
  });
  return app;
}
