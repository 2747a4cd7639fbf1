import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { variables, variablesOf, type Role, type Variables, type VariableSpec } from './config-variables.js';
import { packageFile } from './package-layout.js';
import {
  DEFAULT_ADDRESS,
  DEFAULT_NAMESPACE,
  loadTemporalConnection,
  type TemporalConnectionSettings,
} from './temporal-profile.js';

export { ConfigError } from './config-error.js';
export { DEV_STACK_ROLES, requiredIn, ROLES, variables, variablesOf, type Role } from './config-variables.js';

/**
 * The typed, validated configuration of a process. `src/config-variables.ts` lists every environment variable with
 * the roles that read it; nothing else in the codebase reads `process.env`: entry points call `loadConfig(role)` once
 * and pass `Config` down.
 */
type Env = { [K in keyof Variables]: z.output<Variables[K]['schema']> };
type Environment = Readonly<Record<string, string | undefined>>;

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/**
 * Parses the variables of `role` from the environment; every problem names its variable and values are never echoed.
 * Another role's variables are never read: they keep their defaults, so a bad value of one (the console's OIDC issuer,
 * the worker's heap size) cannot stop this process.
 */
export function parseEnv(role: Role, env: Environment): Env {
  const reads = new Set<string>(variablesOf(role));
  const out: Record<string, unknown> = {};
  const problems: { variable: string; message: string }[] = [];
  for (const [name, spec] of Object.entries(variables) as [string, VariableSpec<z.ZodType>][]) {
    // An empty variable counts as unset, as shells and compose files often leave them.
    const given = !reads.has(name) || env[name] === '' ? undefined : env[name];
    const result = spec.schema.safeParse(given ?? spec.default);
    if (result.success) out[name] = result.data;
    else problems.push({ variable: name, message: result.error.issues.map((i) => i.message).join(', ') });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Env;
}

/**
 * The environment of a child process: this process's own, passed through uninterpreted, with `changes` on top (the
 * worker restarts itself with `MALLOC_ARENA_MAX`, which glibc reads only when a process starts).
 */
export function childEnvironment(changes: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...changes };
}

/** The configuration of a process of `role` (`eligibility worker` loads `'worker'`), from `env`. */
export function loadConfig(role: Role, env: Environment = process.env): Config {
  const e = parseEnv(role, env);
  // envconfig reads Temporal's variables as text, from this same environment once parseEnv has checked them; it
  // also reads HOME and XDG_CONFIG_HOME, the operating system's, to find the default config file.
  return toConfig(e, loadTemporalConnection(env), { searchPath: env.PATH });
}

/** What the operating system says, passed through as it is: not configuration, so not in the table. */
interface OsEnvironment {
  /** PATH: where the `temporal` binary is looked for, and `pip` and `go` when the CLI must be fetched. */
  searchPath: string | undefined;
}

function toConfig(e: Env, connection: TemporalConnectionSettings, system: OsEnvironment) {
  return {
    temporal: {
      ...connection,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      cliPath: e.TEMPORAL_CLI_PATH,
      searchPath: system.searchPath,
      cacheDir: expandHome(e.TEMPORAL_CACHE_DIR),
      // The dev server's UI unless told otherwise: `eligibility ui` prints addresses under it.
      uiUrl: (e.TEMPORAL_UI_URL ?? `http://127.0.0.1:${e.TEMPORAL_UI_PORT}`).replace(/\/+$/, ''),
    },
    worker: {
      shutdownGraceSeconds: e.WORKER_SHUTDOWN_GRACE_SECONDS,
      maxCachedWorkflows: e.WORKER_MAX_CACHED_WORKFLOWS,
      maxConcurrentWorkflowTasks: e.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
      heapMb: e.WORKER_HEAP_MB,
      mallocArenaMax: e.MALLOC_ARENA_MAX,
      workflowBundlePath: e.WORKER_WORKFLOW_BUNDLE,
      deployment: e.WORKER_DEPLOYMENT_NAME
        ? {
            name: e.WORKER_DEPLOYMENT_NAME,
            rollout: e.WORKER_VERSION_ROLLOUT,
            exitWhenDrained: e.WORKER_EXIT_WHEN_DRAINED,
          }
        : undefined,
      http: { host: e.WORKER_HTTP_HOST, port: e.WORKER_HTTP_PORT },
      coreMetricsPort: e.WORKER_CORE_METRICS_PORT,
    },
    service: {
      baseUrl: e.ELIGIBILITY_BASE_URL,
      clientId: e.ELIGIBILITY_CLIENT_ID,
      clientSecret: e.ELIGIBILITY_CLIENT_SECRET,
      idempotencyHeader: e.ELIGIBILITY_IDEMPOTENCY_HEADER,
      v1NpiField: e.ELIGIBILITY_V1_NPI_FIELD,
      v1TaxonomyField: e.ELIGIBILITY_V1_TAXONOMY_FIELD,
      discoveryCreatePath: e.ELIGIBILITY_DISCOVERY_CREATE_PATH,
      timeoutMs: e.ELIGIBILITY_HTTP_TIMEOUT_MS,
      maxRps: e.ELIGIBILITY_MAX_RPS,
      initialRps: e.ELIGIBILITY_INITIAL_RPS,
      governor: e.ELIGIBILITY_GOVERNOR,
    },
    tenants: { weights: e.ELIGIBILITY_TENANT_WEIGHTS },
    webhook: {
      host: e.WEBHOOK_HOST,
      port: e.WEBHOOK_PORT,
      signingSecret: e.WEBHOOK_SIGNING_SECRET,
      basicAuth: e.WEBHOOK_BASIC_AUTH,
      authDisabled: e.WEBHOOK_AUTH_DISABLED,
      toleranceSeconds: e.WEBHOOK_TOLERANCE_SECONDS,
      maxBodyBytes: e.WEBHOOK_MAX_BODY_BYTES,
      eventActions: e.WEBHOOK_EVENT_ACTIONS,
      dedupeTtlSeconds: e.WEBHOOK_DEDUPE_TTL_SECONDS,
      dedupeMaxEvents: e.WEBHOOK_DEDUPE_MAX_EVENTS,
      temporalTimeoutMs: e.WEBHOOK_TEMPORAL_TIMEOUT_MS,
    },
    intake: {
      host: e.INTAKE_HOST,
      port: e.INTAKE_PORT,
      apiKey: e.INTAKE_API_KEY,
      temporalTimeoutMs: e.INTAKE_TEMPORAL_TIMEOUT_MS,
      trustProxy: e.INTAKE_TRUST_PROXY,
    },
    console: {
      host: e.CONSOLE_HOST,
      port: e.CONSOLE_PORT,
      operators: e.CONSOLE_OPERATORS,
      sessionSecret: e.CONSOLE_SESSION_SECRET,
      sessionHours: e.CONSOLE_SESSION_HOURS,
      trustProxy: e.CONSOLE_TRUST_PROXY,
      // Sign-in through the organisation's OpenID Connect provider, on when the issuer is set (apps/console/oidc.ts);
      // requireConsoleSecrets checks that the issuer and the client id come together.
      oidc: {
        issuer: e.OIDC_ISSUER,
        clientId: e.OIDC_CLIENT_ID,
        clientSecret: e.OIDC_CLIENT_SECRET,
        redirectUrl: e.OIDC_REDIRECT_URL,
        roleClaim: e.OIDC_ROLE_CLAIM,
        tenantsClaim: e.OIDC_TENANTS_CLAIM,
        scopes: e.OIDC_SCOPES,
        displayName: e.OIDC_DISPLAY_NAME,
      },
    },
    codec: {
      keys: e.CODEC_KEYS,
      currentKeyId: e.CODEC_CURRENT_KEY_ID,
      keyFile: e.CODEC_KEY_FILE,
      disabled: e.ENCRYPTION_DISABLED,
      // The patient search index's keys (src/blind-index): their own ring, else derived from the codec keys.
      blindIndex: { keys: e.BLIND_INDEX_KEYS, currentKeyId: e.BLIND_INDEX_CURRENT_KEY_ID },
      server: {
        host: e.CODEC_SERVER_HOST,
        port: e.CODEC_SERVER_PORT,
        tokenSecret: e.CODEC_TOKEN_SECRET,
        publicUrl: (e.CODEC_SERVER_URL ?? `http://127.0.0.1:${e.CODEC_SERVER_PORT}`).replace(/\/+$/, ''),
        origins: e.CODEC_UI_ORIGINS.split(',')
          .map((o) => o.trim())
          .filter(Boolean),
        namespace: connection.namespace,
      },
    },
    dev: {
      dataDir: e.DEV_DATA_DIR,
      uiPort: e.TEMPORAL_UI_PORT,
      // The package's own example wherever the command runs from; a path given is the user's, from the working directory.
      exampleFile: e.DEV_EXAMPLE_FILE ?? packageFile('examples/intake.csv'),
      graceSeconds: e.DEV_GRACE_SECONDS,
      // The dev server `eligibility dev` starts: local and plaintext, placed by the variables alone. A Temporal profile
      // (a Cloud one in ~/.config/temporalio/temporal.toml, say) is for an existing server: --no-temporal-server.
      temporal: {
        address: e.TEMPORAL_ADDRESS ?? DEFAULT_ADDRESS,
        namespace: e.TEMPORAL_NAMESPACE ?? DEFAULT_NAMESPACE,
      },
    },
    database: { url: e.DATABASE_URL, port: e.DEV_DATABASE_PORT },
    audit: {
      retentionDays: e.AUDIT_RETENTION_DAYS,
      keys: e.AUDIT_KEYS,
      currentKeyId: e.AUDIT_CURRENT_KEY_ID,
      keyFile: e.AUDIT_KEY_FILE,
      checkpointFile: e.AUDIT_CHECKPOINT_FILE,
    },
    patients: { idKey: e.PATIENT_ID_KEY, idKeyFile: e.PATIENT_ID_KEY_FILE },
    events: {
      taskQueue: e.EVENTS_TASK_QUEUE,
      retryWindowHours: e.EVENTS_RETRY_WINDOW_HOURS,
      endpointConcurrency: e.EVENTS_ENDPOINT_CONCURRENCY,
    },
    log: { level: e.LOG_LEVEL },
    observability: {
      readyTimeoutMs: e.READYZ_TIMEOUT_MS,
      otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, ''),
      serviceName: e.OTEL_SERVICE_NAME,
    },
  };
}

export type Config = ReturnType<typeof toConfig>;
export type ServiceConfig = Config['service'];
export type TemporalConfig = Config['temporal'];
export type CodecConfig = Config['codec'];
export type EventsConfig = Config['events'];
export type PatientsConfig = Config['patients'];
export type WebhookConfig = Config['webhook'];
export type IntakeConfig = Config['intake'];
export type WorkerConfig = Config['worker'];
export type ObservabilityConfig = Config['observability'];
export type ConsoleConfig = Config['console'];
export type OidcConfig = ConsoleConfig['oidc'];
export type DatabaseConfig = Config['database'];
