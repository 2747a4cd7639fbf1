import { z } from 'zod';

/**
 * The project's environment variables, in one table: each one's schema, local default, meaning, and the roles (the
 * processes, `eligibility <role>`) that read it. `loadConfig(role)` in src/config.ts parses a role's variables and no
 * other, so a bad value stops only the processes that use it; entry points call it once and pass `Config` down.
 * The sandbox's variables live with the sandbox (sandbox/config.ts); the operating system's (PATH, HOME) are not
 * configuration. The configuration page (docs/operating/configuration.md) is generated from this table
 * (`npm run docs:config`), and a test keeps them equal.
 */
export interface VariableSpec<S extends z.ZodType> {
  schema: S;
  /** The value used when the variable is unset, as it would be written in the environment; undefined = optional. */
  default?: string;
  description: string;
  /** Secret values are never printed (the configuration page shows only that a default exists). */
  secret?: boolean;
  /** The roles whose processes read it; every other process leaves it unread, whatever its value. */
  roles: readonly Role[];
  /**
   * Of those, the roles whose deployment must set it: its local default is wrong or unsafe outside one machine
   * (127.0.0.1 addresses and binds, sandbox credentials) or it has none and the role cannot work without it (webhook
   * authentication, encryption keys). docker-compose.yml sets every one of them for its services (test/deploy).
   */
  required?: readonly Role[];
}

/**
 * The processes, each an `eligibility` command: the worker, the four services, the CLI's client commands (`start`,
 * `status`, `setup`, `deploy`, …) and the dev stack. The sandbox reads its own variables (sandbox/config.ts).
 */
export const ROLES = ['worker', 'intake', 'console', 'receiver', 'codec-server', 'cli', 'dev'] as const;
export type Role = (typeof ROLES)[number];

/** The long-running processes of a deployment; `eligibility dev` runs all of them in one process. */
const SERVICES = ['worker', 'intake', 'console', 'receiver', 'codec-server'] as const satisfies readonly Role[];
/** Every process that talks to Temporal. */
const TEMPORAL_CLIENTS = [...SERVICES, 'cli'] as const satisfies readonly Role[];

/** The processes that write or verify the audit trail: they need its keys and its checkpoint. */
const AUDIT_WRITERS = ['intake', 'console', 'codec-server', 'cli'] as const satisfies readonly Role[];

/** What `eligibility dev` runs beside its own parts (a dev server, the sandbox): it reads their variables too. */
export const DEV_STACK_ROLES: readonly Role[] = SERVICES;

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();
const hostPort = z.string().regex(/^[^:\s]+:\d{1,5}$/, 'expected host:port');
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, 'expected an HTTP header name');
const fieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a JSON field name');

/**
 * Secrets this project checks (webhook signing secret, intake API key, the secret of codec passes): long enough that guessing
 * is hopeless. 32 characters is what `openssl rand -hex 16` prints; the dev stack makes longer ones itself.
 */
export const MIN_SECRET_LENGTH = 32;
const secret = z
  .string()
  .min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -hex 32\`)`);

/** A JSON text whose parsed value must match `schema` (the message never echoes the text, which may be secret). */
function jsonObjectOf<S extends z.ZodType>(schema: S) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'expected a JSON object' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

/** Hosts an http (not https) OpenID Connect issuer may have: a provider on this machine (tests, a local trial). */
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Where the OpenID Connect provider sends the browser back to (apps/console/oidc.ts serves it). */
export const OIDC_CALLBACK_PATH = '/sign-in/oidc/callback';

function v<S extends z.ZodType>(spec: VariableSpec<S>): VariableSpec<S> {
  return spec;
}

export const variables = {
  // Temporal's own connection variables, read through @temporalio/envconfig as the Temporal CLI and SDKs read them:
  // each overrides the same setting of the profile (TEMPORAL_PROFILE) of the TOML config file (src/temporal-profile.ts).
  TEMPORAL_ADDRESS: v({
    schema: hostPort.optional(),
    description: "Temporal frontend (gRPC) address (unset = the profile's, else 127.0.0.1:7233)",
    roles: TEMPORAL_CLIENTS,
    required: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_NAMESPACE: v({
    schema: z.string().min(1).optional(),
    description: "Temporal namespace (unset = the profile's, else `default`)",
    roles: TEMPORAL_CLIENTS,
    required: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_API_KEY: v({
    schema: z.string().min(1).optional(),
    description: 'Temporal Cloud API key (sent as `Authorization: Bearer …`; implies TLS)',
    secret: true,
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS: v({
    schema: bool.optional(),
    description:
      'TLS to the Temporal frontend: `true` with nothing else verifies the server against the system roots (unset = TLS when another TLS setting or an API key is given)',
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS_CLIENT_CERT_PATH: v({
    schema: z.string().min(1).optional(),
    description: 'PEM file of the client certificate for mTLS; with TEMPORAL_TLS_CLIENT_KEY_PATH',
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS_CLIENT_KEY_PATH: v({
    schema: z.string().min(1).optional(),
    description: 'PEM file of the private key of the client certificate',
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: v({
    schema: z.string().min(1).optional(),
    description: "PEM file of the CA that signed the Temporal server's certificate (unset = the system roots)",
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS_CLIENT_CERT_DATA: v({
    schema: z.string().min(1).optional(),
    description: 'The client certificate itself (PEM), instead of TEMPORAL_TLS_CLIENT_CERT_PATH',
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS_CLIENT_KEY_DATA: v({
    schema: z.string().min(1).optional(),
    description: 'The private key itself (PEM), instead of TEMPORAL_TLS_CLIENT_KEY_PATH',
    secret: true,
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: v({
    schema: z.string().min(1).optional(),
    description: "The server's CA certificate itself (PEM), instead of TEMPORAL_TLS_SERVER_CA_CERT_PATH",
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TLS_SERVER_NAME: v({
    schema: z.string().min(1).optional(),
    description: "Name checked against the server's certificate instead of the host of the address (SNI)",
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_PROFILE: v({
    schema: z.string().min(1).optional(),
    description: 'Profile of the Temporal config file to connect with (unset = `default`, when the file has one)',
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_CONFIG_FILE: v({
    schema: z.string().min(1).optional(),
    description:
      "Temporal's TOML config file of connection profiles, shared with the Temporal CLI (unset = $XDG_CONFIG_HOME/temporalio/temporal.toml, else ~/.config/temporalio/temporal.toml, if it exists)",
    roles: TEMPORAL_CLIENTS,
  }),
  TEMPORAL_TASK_QUEUE: v({
    schema: z.string().min(1),
    default: 'eligibility',
    description: 'Task queue of the workflows and of the activities that call the service',
    roles: ['worker', 'intake', 'receiver', 'cli'],
  }),
  WORKER_SHUTDOWN_GRACE_SECONDS: v({
    schema: nonNegativeInt,
    default: '30',
    description:
      'On SIGTERM / SIGINT the worker stops taking tasks and lets activities in flight finish for this long, then cancels them and exits',
    roles: ['worker'],
  }),
  WORKER_MAX_CACHED_WORKFLOWS: v({
    schema: z.coerce.number().int().min(2),
    default: '200',
    description:
      'Workflows a worker keeps in memory between their tasks; an evicted one is replayed from its history when it next wakes (the default keeps a worker within 300 MB; see docs/operating/workers.md)',
    roles: ['worker'],
  }),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: v({
    schema: positiveInt,
    default: '8',
    description:
      "Workflow tasks a worker holds at once. More keeps more verifications moving when the server's round trips are slow (throughput); fewer leaves more of them at the server, where the front desk's are handed out before a batch's (see docs/developing/traffic.md)",
    roles: ['worker'],
  }),
  WORKER_HEAP_MB: v({
    schema: z.coerce.number().int().min(128),
    default: '256',
    description:
      "Old-space limit (MB) of each of the worker's two V8 heaps, main thread and workflow thread; it must hold the cache: 64 MB + 256 kB per cached workflow, else the worker refuses to start (see docs/operating/workers.md)",
    roles: ['worker'],
  }),
  MALLOC_ARENA_MAX: v({
    schema: positiveInt,
    default: '2',
    description:
      'glibc malloc arenas of the worker process: the worker restarts itself with this and its heap limits set (see docs/operating/workers.md)',
    roles: ['worker'],
  }),
  WORKER_WORKFLOW_BUNDLE: v({
    schema: z.string().min(1).optional(),
    description:
      'A workflow bundle to load instead of the one `npm run build` writes (unset = the compiled worker loads dist/workflow-bundle.js; a worker run from the TypeScript sources, as in tests, bundles at start in a child process)',
    roles: ['worker'],
  }),
  WORKER_DEPLOYMENT_NAME: v({
    schema: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/)
      .optional(),
    description:
      "The Worker Deployment the worker belongs to (docs/operating/deploying-changes.md): set, each build is a version whose build id is its workflow bundle's hash, and workflows stay on the version they started on; unset = an unversioned worker",
    roles: ['worker', 'cli'],
  }),
  WORKER_VERSION_ROLLOUT: v({
    schema: z.enum(['manual', 'first', 'always']),
    default: 'first',
    description:
      "When the worker's version takes new workflows: `first` makes it current if the deployment has no current version (a first install), else it waits for `eligibility deploy ramp|promote`; `manual` always waits; `always` makes it current as soon as it polls (the dev stack)",
    roles: ['worker'],
  }),
  WORKER_EXIT_WHEN_DRAINED: v({
    schema: bool,
    default: 'false',
    description:
      "The worker stops by itself (exit 0) once its version is neither current nor ramping and no open workflow is pinned to it: an old version's workers leave when nothing needs them (leave it off where an orchestrator restarts a stopped worker)",
    roles: ['worker'],
  }),
  WORKER_HTTP_HOST: v({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description: "Interface of the worker's HTTP server (`/metrics`, `/healthz`, `/readyz`); a container binds 0.0.0.0",
    roles: ['worker'],
    required: ['worker'],
  }),
  WORKER_HTTP_PORT: v({
    schema: port,
    default: '4040',
    description:
      "Port of the worker's HTTP server: `/metrics` serves the Temporal SDK's metrics and the project's in one scrape",
    roles: ['worker'],
  }),
  WORKER_CORE_METRICS_PORT: v({
    schema: port.optional(),
    description:
      "Loopback port of the Temporal SDK's own Prometheus exporter, which `/metrics` on WORKER_HTTP_PORT merges in (unset = a free port)",
    roles: ['worker'],
  }),
  TEMPORAL_CLI_PATH: v({
    schema: z.string().min(1).optional(),
    description:
      'Path of a Temporal CLI binary to use for the dev server (else PATH, the user cache, or a download into it)',
    roles: ['dev'],
  }),
  TEMPORAL_CACHE_DIR: v({
    schema: z.string().min(1),
    default: '~/.cache/eligibility-orchestrator',
    description: 'Where the Temporal CLI is downloaded (or built) to when it is not found',
    roles: ['dev'],
  }),
  ELIGIBILITY_BASE_URL: v({
    schema: z.url({ protocol: /^https?$/ }),
    default: 'http://127.0.0.1:4010',
    description: "Base address of the eligibility service (the sandbox's by default)",
    roles: ['worker', 'console', 'intake', 'cli'],
    required: ['worker', 'console'],
  }),
  ELIGIBILITY_CLIENT_ID: v({
    schema: z.string().min(1),
    default: 'sandbox-client',
    description: 'OAuth client id',
    roles: ['worker', 'console', 'intake', 'cli'],
    required: ['worker', 'console'],
  }),
  ELIGIBILITY_CLIENT_SECRET: v({
    schema: z.string().min(1),
    default: 'sandbox-secret',
    description: 'OAuth client secret',
    secret: true,
    roles: ['worker', 'console', 'intake', 'cli'],
    required: ['worker', 'console'],
  }),
  ELIGIBILITY_IDEMPOTENCY_HEADER: v({
    schema: headerName,
    default: 'Idempotency-Key',
    description: 'Header carrying the idempotency key of v2 verification creation (a gap in the spec)',
    roles: ['worker'],
  }),
  ELIGIBILITY_V1_NPI_FIELD: v({
    schema: fieldName,
    default: 'npi',
    description: 'Field name of the provider NPI in v1 verification requests (a gap in the spec)',
    roles: ['worker'],
  }),
  ELIGIBILITY_V1_TAXONOMY_FIELD: v({
    schema: fieldName,
    default: 'taxonomyCode',
    description: 'Field name of the taxonomy code in v1 verification requests (a gap in the spec)',
    roles: ['worker'],
  }),
  ELIGIBILITY_DISCOVERY_CREATE_PATH: v({
    schema: z
      .string()
      .regex(/^\/[A-Za-z0-9/_-]+$/, 'expected a path such as /sandbox/discoveries')
      .optional(),
    description:
      "Where a refresh creates a discovery of the patient's coverage (POST; the spec does not show how, decision 0051); unset = a refresh verifies with the payer the patient holds, and payer, member id and lost coverage go unseen",
    roles: ['worker'],
  }),
  ELIGIBILITY_HTTP_TIMEOUT_MS: v({
    schema: positiveInt,
    default: '10000',
    description: 'Timeout of one HTTP call to the service, in milliseconds',
    roles: ['worker', 'console'],
  }),
  ELIGIBILITY_MAX_RPS: v({
    schema: z.coerce.number().positive().optional(),
    description:
      "The service's known rate limit: calls per second across all workers (enforced by the Temporal server); the governor starts there and never exceeds it (unset = the governor discovers the limit)",
    roles: ['worker'],
  }),
  ELIGIBILITY_INITIAL_RPS: v({
    schema: z.coerce.number().positive(),
    default: '8',
    description: 'With ELIGIBILITY_MAX_RPS unset: the rate the governor starts from before it has learnt the limit',
    roles: ['worker'],
  }),
  ELIGIBILITY_GOVERNOR: v({
    schema: bool,
    default: 'true',
    description:
      'The traffic governor (docs/developing/traffic.md): workers report call outcomes and one governor per task queue sets its dispatch rate',
    roles: ['worker'],
  }),
  ELIGIBILITY_TENANT_WEIGHTS: v({
    // Weights are Temporal's fairness weights, which it clamps to 0.001–1000; a key that no valid tenant can equal
    // (the intake refuses it) simply never applies.
    schema: jsonObjectOf(z.record(z.string().min(1).max(64), z.number().min(0.001).max(1000))),
    default: '{}',
    description:
      'Fair share between tenants within a lane: JSON of tenant to weight, e.g. {"clinic-7":2}; a tenant not named weighs 1',
    roles: ['worker', 'intake', 'cli'],
  }),
  WEBHOOK_HOST: v({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description: 'Interface the webhook receiver binds',
    roles: ['receiver'],
    required: ['receiver'],
  }),
  WEBHOOK_PORT: v({
    schema: port,
    default: '4020',
    description: 'Port of the webhook receiver (0 = any free port)',
    roles: ['receiver'],
  }),
  WEBHOOK_SIGNING_SECRET: v({
    schema: secret.optional(),
    description:
      'Secret of the HMAC-SHA256 signature the receiver requires on every delivery, at least 32 characters (unset = not checked)',
    secret: true,
    roles: ['receiver'],
    required: ['receiver'],
  }),
  WEBHOOK_BASIC_AUTH: v({
    schema: z
      .string()
      .regex(/^[^:]+:.+$/, 'expected user:password')
      .optional(),
    description: 'HTTP basic credentials (`user:password`) the receiver requires on every delivery (unset = none)',
    secret: true,
    roles: ['receiver'],
  }),
  WEBHOOK_AUTH_DISABLED: v({
    schema: bool,
    default: 'false',
    description: 'Must be `true` to run the receiver with neither a signing secret nor basic auth (local use only)',
    roles: ['receiver'],
  }),
  WEBHOOK_TOLERANCE_SECONDS: v({
    schema: positiveInt,
    default: '300',
    description: 'How far a signed timestamp may be from now, either way, before a delivery is refused',
    roles: ['receiver'],
  }),
  WEBHOOK_MAX_BODY_BYTES: v({
    schema: positiveInt,
    default: '65536',
    description: 'Largest webhook body accepted; larger ones are answered 413',
    roles: ['receiver'],
  }),
  WEBHOOK_EVENT_ACTIONS: v({
    schema: jsonObjectOf(z.record(z.string().min(1), z.enum(['discovery-updated', 'run-pending']))),
    default: '{"sandbox.discovery.updated":"discovery-updated","sandbox.run.pending":"run-pending"}',
    description:
      'JSON object: webhook event name -> action (`discovery-updated` or `run-pending`); other events are ignored',
    roles: ['receiver'],
  }),
  WEBHOOK_DEDUPE_TTL_SECONDS: v({
    schema: positiveInt,
    default: '86400',
    description: 'How long the receiver remembers a handled event id, so a redelivery signals nothing again',
    roles: ['receiver'],
  }),
  WEBHOOK_DEDUPE_MAX_EVENTS: v({
    schema: positiveInt,
    default: '10000',
    description: 'Most event ids the receiver remembers (the oldest are forgotten first)',
    roles: ['receiver'],
  }),
  WEBHOOK_TEMPORAL_TIMEOUT_MS: v({
    schema: positiveInt,
    default: '4000',
    description:
      'Deadline of the Temporal calls for one delivery; past it the receiver answers 503 and the sender retries',
    roles: ['receiver'],
  }),
  INTAKE_HOST: v({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description: 'Interface the intake API binds',
    roles: ['intake'],
    required: ['intake'],
  }),
  INTAKE_PORT: v({
    schema: port,
    default: '4030',
    description: 'Port of the intake API (0 = any free port)',
    roles: ['intake'],
  }),
  INTAKE_API_KEY: v({
    schema: secret.optional(),
    description:
      'The key callers of the intake API send in `x-api-key`, at least 32 characters; required: no default (`eligibility dev` makes one in DEV_DATA_DIR)',
    secret: true,
    roles: ['intake'],
    required: ['intake'],
  }),
  INTAKE_TEMPORAL_TIMEOUT_MS: v({
    schema: positiveInt,
    default: '30000',
    description: 'Deadline of the Temporal calls of one intake request (a run-input update waits on a service call)',
    roles: ['intake'],
  }),
  INTAKE_TRUST_PROXY: v({
    schema: bool,
    default: 'false',
    description:
      "The intake API sits behind a proxy or load balancer: take callers' addresses from its X-Forwarded-For, so that failed keys are limited and audited per caller, not per proxy",
    roles: ['intake'],
  }),
  CONSOLE_HOST: v({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description: 'Interface the operator console binds',
    roles: ['console'],
    required: ['console'],
  }),
  CONSOLE_PORT: v({
    schema: port,
    default: '4050',
    description: 'Port of the operator console (0 = any free port)',
    roles: ['console'],
  }),
  CONSOLE_OPERATORS: v({
    schema: z
      .string()
      .regex(
        /^[A-Za-z0-9._@-]{1,64}:scrypt:\d+:\d+:\d+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+(,[A-Za-z0-9._@-]{1,64}:scrypt:\d+:\d+:\d+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+)*$/,
        'expected name:scrypt-hash entries separated by commas (`eligibility console-operator <name>` prints one)',
      )
      .optional(),
    description:
      'Operators who may sign in to the console: `name:scrypt:N:r:p:salt:hash` entries separated by commas, made by `eligibility console-operator <name>`, each an admin of every tenant; required unless DATABASE_URL holds operators (`eligibility operators`): no default (`eligibility dev` makes one operator per run and prints its password)',
    secret: true,
    roles: ['console'],
  }),
  CONSOLE_SESSION_SECRET: v({
    schema: secret.optional(),
    description:
      "Key of the console's session cookie, at least 32 characters; required: no default (`eligibility dev` makes one per run)",
    secret: true,
    roles: ['console'],
    required: ['console'],
  }),
  CONSOLE_SESSION_HOURS: v({
    schema: z.coerce.number().positive(),
    default: '8',
    description: 'How long a console sign-in lasts without use (a work shift)',
    roles: ['console'],
  }),
  CONSOLE_TRUST_PROXY: v({
    schema: bool,
    default: 'false',
    description:
      "The console sits behind a TLS-terminating proxy: trust its X-Forwarded-* headers, so the session cookie is marked Secure on https and sign-in limits and the audit trail see browsers' addresses, not the proxy's",
    roles: ['console'],
  }),
  OIDC_ISSUER: v({
    schema: z
      .url({ protocol: /^https?$/ })
      .refine(
        (url) => !URL.canParse(url) || url.startsWith('https:') || LOOPBACK_HOST.test(new URL(url).hostname),
        'expected an https URL (http only for a provider on this machine: localhost, 127.0.0.1, [::1])',
      )
      .optional(),
    description:
      "The organisation's OpenID Connect provider, by its issuer URL: https (http only for one on this machine, a local trial); its `/.well-known/openid-configuration` is read at the first sign-in. Set, the console's sign-in page offers it beside the password form (`OIDC_*` below)",
    roles: ['console'],
  }),
  OIDC_CLIENT_ID: v({
    schema: z.string().min(1).optional(),
    description: 'The client id the OpenID Connect provider gave the console; required with OIDC_ISSUER',
    roles: ['console'],
  }),
  OIDC_CLIENT_SECRET: v({
    schema: z.string().min(1).optional(),
    description:
      "The console's client secret at the OpenID Connect provider; unset = a public client, proven by PKCE alone",
    secret: true,
    roles: ['console'],
  }),
  OIDC_REDIRECT_URL: v({
    schema: z
      .url({ protocol: /^https?$/ })
      .refine(
        (url) => !URL.canParse(url) || new URL(url).pathname.endsWith(OIDC_CALLBACK_PATH),
        `expected a URL ending in ${OIDC_CALLBACK_PATH}`,
      )
      .optional(),
    description: `The console's callback as registered at the OpenID Connect provider (unset = the address the browser reached the console at + \`${OIDC_CALLBACK_PATH}\`)`,
    roles: ['console'],
  }),
  OIDC_ROLE_CLAIM: v({
    schema: z.string().min(1),
    default: 'eligibility_role',
    description: "The ID token claim holding the person's console role: `admin`, `operator` or `viewer`",
    roles: ['console'],
  }),
  OIDC_TENANTS_CLAIM: v({
    schema: z.string().min(1),
    default: 'eligibility_tenants',
    description:
      'The ID token claim holding the tenants the person sees: a list of tenant ids (or one text of them separated by commas), or `*` for every tenant',
    roles: ['console'],
  }),
  OIDC_SCOPES: v({
    schema: z
      .string()
      .regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'expected scopes separated by single spaces')
      .refine((scopes) => scopes.split(' ').includes('openid'), 'expected `openid` among them'),
    default: 'openid profile email',
    description:
      'Scopes the console asks the OpenID Connect provider for, separated by spaces (`openid` among them; add the one that releases the role and tenants claims if the provider needs one)',
    roles: ['console'],
  }),
  OIDC_DISPLAY_NAME: v({
    schema: z.string().min(1).max(60),
    default: 'your organisation',
    description: "The organisation's name on the console's sign-in button (`Sign in with Clinic Group`)",
    roles: ['console'],
  }),
  DATABASE_URL: v({
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL')
      .optional(),
    description:
      "The project's PostgreSQL (intake clients, the audit trail): `postgres://user:password@host:5432/db`; required by the intake API unless INTAKE_API_KEY alone admits its callers; `eligibility dev` serves an embedded one",
    secret: true,
    roles: ['worker', 'intake', 'console', 'codec-server', 'cli'],
    required: ['worker', 'intake', 'codec-server'],
  }),
  DEV_DATABASE_PORT: v({
    schema: port,
    default: '4060',
    description: 'Port `eligibility dev` serves its embedded database on (0 = any free port)',
    roles: ['dev'],
  }),
  AUDIT_RETENTION_DAYS: v({
    schema: positiveInt,
    default: '2192',
    description: 'How long audit entries are kept (`eligibility audit purge` removes older ones); default six years',
    roles: ['cli'],
  }),
  AUDIT_KEYS: v({
    schema: z.string().min(1).optional(),
    description:
      'Keys of the audit trail, `id:base64` (32 bytes each) separated by commas: each entry and the checkpoint carry an HMAC under one, which the database never holds; old keys stay listed so entries keyed with them still verify. Unset: AUDIT_KEY_FILE, else derived from the codec keys',
    secret: true,
    roles: AUDIT_WRITERS,
  }),
  AUDIT_CURRENT_KEY_ID: v({
    schema: z.string().min(1).optional(),
    description: 'Id of the audit key that keys new entries and the checkpoint (default: the first of AUDIT_KEYS)',
    roles: AUDIT_WRITERS,
  }),
  AUDIT_KEY_FILE: v({
    schema: z.string().min(1).optional(),
    description: 'A file of audit keys (as AUDIT_KEYS, one a line), read when AUDIT_KEYS is unset: a mounted secret',
    roles: AUDIT_WRITERS,
  }),
  AUDIT_CHECKPOINT_FILE: v({
    schema: z.string().min(1),
    default: '.data/audit-checkpoint',
    description:
      "The trail's newest entry, signed, written after every append and read by `audit verify`, which then finds a cut-off end: on storage the database's users cannot write, shared by every process that writes the trail",
    roles: AUDIT_WRITERS,
  }),
  EVENTS_TASK_QUEUE: v({
    schema: z.string().min(1),
    default: 'eligibility-events',
    description:
      "Task queue where earlier versions' event dispatchers hand what they hold over to the outbox (decision 80)",
    roles: ['worker'],
  }),
  EVENTS_RETRY_WINDOW_HOURS: v({
    schema: positiveInt,
    default: '72',
    description:
      'How long a failing event delivery is retried (growing intervals) before its endpoint is disabled as failing',
    roles: ['worker'],
  }),
  EVENTS_ENDPOINT_CONCURRENCY: v({
    schema: positiveInt,
    default: '16',
    description:
      "Deliveries under way at once per event endpoint in each worker process (one verification's events always one at a time, in order)",
    roles: ['worker'],
  }),
  PATIENT_ID_KEY: v({
    schema: z.string().min(1).optional(),
    description:
      "Key of patient ids (base64 of 32 random bytes): a patient's id is an HMAC of its tenant and the practice's reference, so it must never change once patients exist",
    secret: true,
    roles: ['intake', 'cli'],
  }),
  PATIENT_ID_KEY_FILE: v({
    schema: z.string().min(1),
    default: '.data/patient-id-key',
    description: 'Read for the patient id key when PATIENT_ID_KEY is unset; `eligibility dev` creates it',
    roles: ['intake', 'cli'],
  }),
  CODEC_KEYS: v({
    schema: z.string().min(1).optional(),
    description:
      'Payload encryption keys, `id:base64` (32 bytes each) separated by commas; old keys stay listed so data they encrypted still decrypts (`eligibility codec-key` makes one)',
    secret: true,
    roles: TEMPORAL_CLIENTS,
    required: TEMPORAL_CLIENTS,
  }),
  CODEC_CURRENT_KEY_ID: v({
    schema: z.string().min(1).optional(),
    description: 'Id of the key that encrypts new payloads (default: the first of CODEC_KEYS)',
    roles: TEMPORAL_CLIENTS,
  }),
  CODEC_KEY_FILE: v({
    schema: z.string().min(1),
    default: '.data/codec-keys',
    description: 'Read for keys when CODEC_KEYS is unset; `eligibility dev` creates it, so `npm start` needs no key',
    roles: TEMPORAL_CLIENTS,
  }),
  BLIND_INDEX_KEYS: v({
    schema: z.string().min(1).optional(),
    description:
      'Keys of the patient search index (keyed hashes of last name + date of birth and of member id), `id:base64` (32 bytes each) separated by commas, the newest first; old keys stay listed so verifications indexed with them are still found. Unset: derived from the codec keys',
    secret: true,
    roles: ['worker', 'intake', 'console', 'cli'],
  }),
  BLIND_INDEX_CURRENT_KEY_ID: v({
    schema: z.string().min(1).optional(),
    description: 'Id of the key that indexes new verifications (default: the first of BLIND_INDEX_KEYS)',
    roles: ['worker', 'intake', 'console', 'cli'],
  }),
  ENCRYPTION_DISABLED: v({
    schema: bool,
    default: 'false',
    description: 'Only `true` switches payload encryption off (patient data then sits in plaintext in Temporal)',
    roles: TEMPORAL_CLIENTS,
  }),
  CODEC_SERVER_HOST: v({
    schema: z.string().min(1),
    default: '127.0.0.1',
    description: 'Interface the codec server binds',
    roles: ['codec-server'],
    required: ['codec-server'],
  }),
  CODEC_SERVER_PORT: v({
    schema: port,
    default: '8888',
    description: 'Port of the codec server for Temporal UI and CLI',
    roles: ['codec-server', 'console'],
  }),
  CODEC_TOKEN_SECRET: v({
    schema: secret.optional(),
    description:
      'Signs the short-lived passes people show the codec server (the console and `eligibility codec-pass` mint them), at least 32 characters; the codec server and the console need the same one; `eligibility dev` makes one per run',
    secret: true,
    roles: ['codec-server', 'console', 'cli'],
    required: ['codec-server'],
  }),
  CODEC_SERVER_URL: v({
    schema: z.string().url().optional(),
    description:
      "The codec server's address as people's browsers reach it: the console's Temporal UI page puts each person's pass on it (default http://127.0.0.1:<CODEC_SERVER_PORT>)",
    roles: ['console'],
  }),
  CODEC_UI_ORIGINS: v({
    schema: z.string().min(1),
    default: 'http://localhost:8233,http://127.0.0.1:8233',
    description: 'Browser origins (Temporal UI) allowed to call the codec server, comma-separated',
    roles: ['codec-server'],
    required: ['codec-server'],
  }),
  DEV_DATA_DIR: v({
    schema: z.string().min(1),
    default: '.data',
    description: '`eligibility dev` / `npm start`: where the Temporal dev server keeps its state between runs',
    roles: ['dev'],
  }),
  TEMPORAL_UI_URL: v({
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description:
      "Address of Temporal UI, for the links `eligibility ui` prints (unset = the dev server's, http://127.0.0.1:TEMPORAL_UI_PORT; Temporal Cloud: https://cloud.temporal.io)",
    roles: ['console', 'cli'],
  }),
  TEMPORAL_UI_PORT: v({
    schema: port,
    default: '8233',
    description: '`eligibility dev` / `npm start`: port of Temporal UI',
    roles: ['console', 'cli', 'dev'],
  }),
  DEV_EXAMPLE_FILE: v({
    schema: z.string().min(1).optional(),
    description:
      "`eligibility dev` / `npm start`: the intake file it runs once the stack is up (unset = the package's examples/intake.csv)",
    roles: ['dev'],
  }),
  DEV_GRACE_SECONDS: v({
    schema: z.coerce.number().positive(),
    default: '5',
    description: '`eligibility dev` / `npm start`: grace period of the example verifications (24 h in production)',
    roles: ['dev'],
  }),
  READYZ_TIMEOUT_MS: v({
    schema: positiveInt,
    default: '2000',
    description: '`/readyz` answers 503 when the Temporal server does not answer within this many milliseconds',
    roles: ['worker', 'intake', 'receiver'],
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: v({
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description:
      'OpenTelemetry: base address of an OTLP/HTTP collector (traces go to `<it>/v1/traces`); unset = tracing exports nothing',
    roles: ['worker', 'intake', 'console', 'receiver'],
  }),
  OTEL_SERVICE_NAME: v({
    schema: z.string().min(1).optional(),
    description: 'OpenTelemetry: the service name of exported spans (unset = `eligibility-<role>`)',
    roles: ['worker', 'intake', 'console', 'receiver'],
  }),
  LOG_LEVEL: v({
    schema: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
    default: 'info',
    description: 'Log level',
    roles: SERVICES,
  }),
} as const;

export type Variables = typeof variables;

/** The variables a process of `role` parses: its own, and for the dev stack those of every role it runs. */
export function variablesOf(role: Role): (keyof Variables)[] {
  const reads = new Set<Role>(role === 'dev' ? ['dev', ...DEV_STACK_ROLES] : [role]);
  return (Object.keys(variables) as (keyof Variables)[]).filter((name) =>
    variables[name].roles.some((r) => reads.has(r)),
  );
}

/** What a deployment of `role` must set (`required` above), in the table's order. */
export function requiredIn(role: Role): (keyof Variables)[] {
  return (Object.keys(variables) as (keyof Variables)[]).filter((name) => {
    const spec: VariableSpec<z.ZodType> = variables[name];
    return spec.required?.includes(role) ?? false;
  });
}
