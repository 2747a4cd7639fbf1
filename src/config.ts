import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the project reads, in one table: its schema, its local default and what it is for.
 * Nothing else in the codebase reads `process.env`; entry points call `loadConfig()` once and pass `Config` down.
 * The README's configuration table is generated from this table (`npm run docs:config`), and a test keeps them equal.
 */
interface VariableSpec<S extends z.ZodType> {
  schema: S;
  /** The value used when the variable is unset, as it would be written in the environment; undefined = optional. */
  default?: string;
  description: string;
  /** Secret values are never printed (the README shows only that a default exists). */
  secret?: boolean;
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();
const probability = z.coerce.number().min(0).max(1);
const hostPort = z.string().regex(/^[^:\s]+:\d{1,5}$/, 'expected host:port');
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, 'expected an HTTP header name');
const fieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a JSON field name');

function v<S extends z.ZodType>(spec: VariableSpec<S>): VariableSpec<S> {
  return spec;
}

export const variables = {
  TEMPORAL_ADDRESS: v({ schema: hostPort, default: '127.0.0.1:7233', description: 'Temporal frontend (gRPC) address' }),
  TEMPORAL_NAMESPACE: v({ schema: z.string().min(1), default: 'default', description: 'Temporal namespace' }),
  TEMPORAL_TASK_QUEUE: v({
    schema: z.string().min(1),
    default: 'eligibility',
    description: 'Task queue of the workflows and of the activities that call the service',
  }),
  TEMPORAL_CLI_PATH: v({
    schema: z.string().min(1).optional(),
    description: 'Path of a Temporal CLI binary to use for the dev server (else PATH, the user cache, or a build)',
  }),
  PATH: v({
    schema: z.string().optional(),
    description: 'Searched for the `temporal` and `go` binaries',
  }),
  TEMPORAL_CACHE_DIR: v({
    schema: z.string().min(1),
    default: '~/.cache/eligibility-orchestrator',
    description: 'Where the Temporal CLI is built or downloaded to when it is not found',
  }),
  ELIGIBILITY_BASE_URL: v({
    schema: z.url({ protocol: /^https?$/ }),
    default: 'http://127.0.0.1:4010',
    description: "Base address of the eligibility service (the sandbox's by default)",
  }),
  ELIGIBILITY_CLIENT_ID: v({ schema: z.string().min(1), default: 'sandbox-client', description: 'OAuth client id' }),
  ELIGIBILITY_CLIENT_SECRET: v({
    schema: z.string().min(1),
    default: 'sandbox-secret',
    description: 'OAuth client secret',
    secret: true,
  }),
  ELIGIBILITY_IDEMPOTENCY_HEADER: v({
    schema: headerName,
    default: 'Idempotency-Key',
    description: 'Header carrying the idempotency key of v2 verification creation (a gap in the spec)',
  }),
  ELIGIBILITY_V1_NPI_FIELD: v({
    schema: fieldName,
    default: 'npi',
    description: 'Field name of the provider NPI in v1 verification requests (a gap in the spec)',
  }),
  ELIGIBILITY_V1_TAXONOMY_FIELD: v({
    schema: fieldName,
    default: 'taxonomyCode',
    description: 'Field name of the taxonomy code in v1 verification requests (a gap in the spec)',
  }),
  ELIGIBILITY_HTTP_TIMEOUT_MS: v({
    schema: positiveInt,
    default: '10000',
    description: 'Timeout of one HTTP call to the service, in milliseconds',
  }),
  ELIGIBILITY_MAX_RPS: v({
    schema: z.coerce.number().positive(),
    default: '20',
    description: 'Calls per second to the service across all workers (enforced by the Temporal server)',
  }),
  SANDBOX_HOST: v({ schema: z.string().min(1), default: '127.0.0.1', description: 'Interface the sandbox binds' }),
  SANDBOX_PORT: v({ schema: port, default: '4010', description: 'Port of the sandbox (0 = any free port)' }),
  SANDBOX_CLIENT_ID: v({
    schema: z.string().min(1),
    default: 'sandbox-client',
    description: 'Client id the sandbox accepts',
  }),
  SANDBOX_CLIENT_SECRET: v({
    schema: z.string().min(1),
    default: 'sandbox-secret',
    description: 'Client secret the sandbox accepts',
    secret: true,
  }),
  SANDBOX_TOKEN_TTL_SECONDS: v({
    schema: z.coerce.number().positive(),
    default: '3600',
    description: 'Lifetime of sandbox access tokens (`expires_in`), in seconds',
  }),
  SANDBOX_RATE_PER_SECOND: v({
    schema: z.coerce.number().positive(),
    default: '50',
    description: 'Sandbox rate limit: tokens added to each client id’s bucket per second',
  }),
  SANDBOX_RATE_BURST: v({ schema: positiveInt, default: '100', description: 'Sandbox rate limit: bucket size' }),
  SANDBOX_DISCOVERY_DELAY_MS: v({
    schema: nonNegativeInt,
    default: '2000',
    description: 'How long a sandbox discovery stays pending before it completes',
  }),
  SANDBOX_WEBHOOK_SECRET: v({
    schema: z.string().min(1).optional(),
    description: 'When set, the sandbox signs webhook deliveries with HMAC-SHA256',
    secret: true,
  }),
  SANDBOX_WEBHOOK_MAX_ATTEMPTS: v({
    schema: positiveInt,
    default: '5',
    description: 'Delivery attempts per webhook event before the sandbox gives up',
  }),
  SANDBOX_FAULT_500_RATE: v({ schema: probability, default: '0', description: 'Probability of an injected 500' }),
  SANDBOX_FAULT_429_RATE: v({ schema: probability, default: '0', description: 'Probability of an injected 429' }),
  SANDBOX_FAULT_LATENCY_MS: v({ schema: nonNegativeInt, default: '0', description: 'Latency added to every call' }),
  LOG_LEVEL: v({
    schema: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
    default: 'info',
    description: 'Log level',
  }),
  LOG_PRETTY: v({ schema: bool, default: 'false', description: 'Human-readable log lines instead of JSON' }),
} as const;

type Variables = typeof variables;
type Env = { [K in keyof Variables]: z.output<Variables[K]['schema']> };

export class ConfigError extends Error {
  constructor(readonly problems: readonly { variable: string; message: string }[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable}: ${p.message}`).join('; ')}`);
    this.name = 'ConfigError';
  }
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/** Parses the environment into typed variables; every problem names its variable. Values are never echoed. */
export function parseEnv(env: Readonly<Record<string, string | undefined>>): Env {
  const out: Record<string, unknown> = {};
  const problems: { variable: string; message: string }[] = [];
  for (const [name, spec] of Object.entries(variables) as [string, VariableSpec<z.ZodType>][]) {
    // An empty variable counts as unset, as shells and compose files often leave them.
    const given = env[name] === '' ? undefined : env[name];
    const raw = given ?? spec.default;
    const result = spec.schema.safeParse(raw);
    if (result.success) out[name] = result.data;
    else problems.push({ variable: name, message: result.error.issues.map((i) => i.message).join(', ') });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Env;
}

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  return toConfig(parseEnv(env));
}

function toConfig(e: Env) {
  return {
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      cliPath: e.TEMPORAL_CLI_PATH,
      searchPath: e.PATH,
      cacheDir: expandHome(e.TEMPORAL_CACHE_DIR),
    },
    service: {
      baseUrl: e.ELIGIBILITY_BASE_URL,
      clientId: e.ELIGIBILITY_CLIENT_ID,
      clientSecret: e.ELIGIBILITY_CLIENT_SECRET,
      idempotencyHeader: e.ELIGIBILITY_IDEMPOTENCY_HEADER,
      v1NpiField: e.ELIGIBILITY_V1_NPI_FIELD,
      v1TaxonomyField: e.ELIGIBILITY_V1_TAXONOMY_FIELD,
      timeoutMs: e.ELIGIBILITY_HTTP_TIMEOUT_MS,
      maxRps: e.ELIGIBILITY_MAX_RPS,
    },
    sandbox: {
      host: e.SANDBOX_HOST,
      port: e.SANDBOX_PORT,
      clientId: e.SANDBOX_CLIENT_ID,
      clientSecret: e.SANDBOX_CLIENT_SECRET,
      tokenTtlSeconds: e.SANDBOX_TOKEN_TTL_SECONDS,
      ratePerSecond: e.SANDBOX_RATE_PER_SECOND,
      rateBurst: e.SANDBOX_RATE_BURST,
      discoveryDelayMs: e.SANDBOX_DISCOVERY_DELAY_MS,
      webhookSecret: e.SANDBOX_WEBHOOK_SECRET,
      webhookMaxAttempts: e.SANDBOX_WEBHOOK_MAX_ATTEMPTS,
      idempotencyHeader: e.ELIGIBILITY_IDEMPOTENCY_HEADER,
      v1NpiField: e.ELIGIBILITY_V1_NPI_FIELD,
      v1TaxonomyField: e.ELIGIBILITY_V1_TAXONOMY_FIELD,
      faults: {
        error500Rate: e.SANDBOX_FAULT_500_RATE,
        error429Rate: e.SANDBOX_FAULT_429_RATE,
        latencyMs: e.SANDBOX_FAULT_LATENCY_MS,
      },
    },
    log: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY },
  };
}

export type Config = ReturnType<typeof toConfig>;
export type ServiceConfig = Config['service'];
export type SandboxConfig = Config['sandbox'];
export type TemporalConfig = Config['temporal'];

/** The README's configuration table, generated from `variables`. */
export function configTableMarkdown(): string {
  const rows = Object.entries(variables).map(([name, spec]: [string, VariableSpec<z.ZodType>]) => {
    const shown = spec.default === undefined ? '(unset)' : spec.secret ? '(a local default)' : `\`${spec.default}\``;
    return `| \`${name}\` | ${shown} | ${spec.description} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
