import { z } from 'zod';
import { DEFAULT_IDEMPOTENCY_HEADER, DEFAULT_V1_FIELD_NAMES } from '../src/contract/index.js';
import { ConfigError } from '../src/config-error.js';

/**
 * The sandbox's environment variables, apart from the product's (src/config-variables.ts): only `eligibility sandbox`
 * and the dev stack read them, so a fault rate set for a test run can never stop a worker or a service. Its page is
 * docs/integrating/sandbox.md, whose table `npm run docs:config` generates from this one.
 */
export interface SandboxVariable {
  schema: z.ZodType;
  /** The value used when the variable is unset, as it would be written in the environment; undefined = optional. */
  default?: string;
  description: string;
  /** Secret values are never printed (the page shows only that a default exists). */
  secret?: boolean;
  /** A sandbox deployed apart (compose's `--profile sandbox`) must set it: its default binds or credentials. */
  required?: boolean;
}

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();
const positive = z.coerce.number().positive();
const probability = z.coerce.number().min(0).max(1);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, 'expected an HTTP header name');
const fieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a JSON field name');

export const sandboxVariables = {
  SANDBOX_HOST: {
    schema: z.string().min(1),
    default: '127.0.0.1',
    description: 'Interface the sandbox binds',
    required: true,
  },
  SANDBOX_PORT: { schema: port, default: '4010', description: 'Port of the sandbox (0 = any free port)' },
  SANDBOX_CLIENT_ID: {
    schema: z.string().min(1),
    default: 'sandbox-client',
    description: 'Client id the sandbox accepts',
    required: true,
  },
  SANDBOX_CLIENT_SECRET: {
    schema: z.string().min(1),
    default: 'sandbox-secret',
    description: 'Client secret the sandbox accepts',
    secret: true,
    required: true,
  },
  SANDBOX_TOKEN_TTL_SECONDS: {
    schema: positive,
    default: '3600',
    description: 'Lifetime of sandbox access tokens (`expires_in`), in seconds',
  },
  SANDBOX_RATE_PER_SECOND: {
    schema: positive,
    default: '50',
    description: 'Rate limit: tokens added to each client id’s bucket per second',
  },
  SANDBOX_RATE_BURST: { schema: positiveInt, default: '100', description: 'Rate limit: bucket size' },
  SANDBOX_DISCOVERY_DELAY_MS: {
    schema: nonNegativeInt,
    default: '2000',
    description: 'How long a discovery stays pending before it completes',
  },
  SANDBOX_WEBHOOK_SECRET: {
    schema: z.string().min(1).optional(),
    description: 'When set, the sandbox signs webhook deliveries with HMAC-SHA256',
    secret: true,
  },
  SANDBOX_WEBHOOK_MAX_ATTEMPTS: {
    schema: positiveInt,
    default: '5',
    description: 'Delivery attempts per webhook event before the sandbox gives up',
  },
  SANDBOX_WEBHOOK_TIMEOUT_MS: {
    schema: positiveInt,
    default: '5000',
    description: 'How long the sandbox waits for a webhook receiver to answer one delivery attempt',
  },
  SANDBOX_WEBHOOK_BACKOFF_MS: {
    schema: nonNegativeInt,
    default: '250',
    description: 'Delay before the second webhook delivery attempt; it doubles with each further attempt',
  },
  SANDBOX_LOG_REQUESTS: {
    schema: bool,
    default: 'false',
    description: 'Log one line per request (method, path, status; never bodies)',
  },
  SANDBOX_FAULT_500_RATE: { schema: probability, default: '0', description: 'Probability of an injected 500' },
  SANDBOX_FAULT_429_RATE: { schema: probability, default: '0', description: 'Probability of an injected 429' },
  SANDBOX_FAULT_LATENCY_MS: { schema: nonNegativeInt, default: '0', description: 'Latency added to every call' },
  SANDBOX_FAULT_RETRY_AFTER_SECONDS: {
    schema: positiveInt,
    default: '1',
    description: '`Retry-After` of injected 429s, in seconds',
  },
  SANDBOX_FAULT_DROP_RESPONSES: {
    schema: nonNegativeInt,
    default: '0',
    description: 'The next N responses of verification creation are dropped after processing (socket destroyed)',
  },
  SANDBOX_FAULT_WEBHOOK_DUPLICATE_RATE: {
    schema: probability,
    default: '0',
    description: 'Probability that a webhook event is delivered twice',
  },
  SANDBOX_FAULT_WEBHOOK_DROP_RATE: {
    schema: probability,
    default: '0',
    description: 'Probability that a webhook event is never delivered',
  },
  SANDBOX_FAULT_WEBHOOK_REORDER: {
    schema: bool,
    default: 'false',
    description: 'Hold webhook deliveries briefly and send them in reverse order',
  },
  // The spec's gaps, read under the workers' names: both sides of one machine then agree on them.
  ELIGIBILITY_IDEMPOTENCY_HEADER: {
    schema: headerName,
    default: DEFAULT_IDEMPOTENCY_HEADER,
    description: 'Header carrying the idempotency key of v2 verification creation, as the workers send it',
  },
  ELIGIBILITY_V1_NPI_FIELD: {
    schema: fieldName,
    default: DEFAULT_V1_FIELD_NAMES.npi,
    description: 'Field name of the provider NPI in v1 verification requests, as the workers send it',
  },
  ELIGIBILITY_V1_TAXONOMY_FIELD: {
    schema: fieldName,
    default: DEFAULT_V1_FIELD_NAMES.taxonomy,
    description: 'Field name of the taxonomy code in v1 verification requests, as the workers send it',
  },
} satisfies Record<string, SandboxVariable>;

type SandboxVariables = typeof sandboxVariables;
type Env = { [K in keyof SandboxVariables]: z.output<SandboxVariables[K]['schema']> };

/** Parses the sandbox's variables; every problem names its variable and values are never echoed. */
function parseSandboxEnv(env: Readonly<Record<string, string | undefined>>): Env {
  const out: Record<string, unknown> = {};
  const problems: { variable: string; message: string }[] = [];
  for (const [name, spec] of Object.entries(sandboxVariables) as [string, SandboxVariable][]) {
    // An empty variable counts as unset, as shells and compose files often leave them.
    const result = spec.schema.safeParse(env[name] === '' ? spec.default : (env[name] ?? spec.default));
    if (result.success) out[name] = result.data;
    else problems.push({ variable: name, message: result.error.issues.map((i) => i.message).join(', ') });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Env;
}

/** The sandbox's configuration (`eligibility sandbox`, the dev stack), from `env`. */
export function loadSandboxConfig(env: Readonly<Record<string, string | undefined>> = process.env) {
  const e = parseSandboxEnv(env);
  return {
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
    webhookTimeoutMs: e.SANDBOX_WEBHOOK_TIMEOUT_MS,
    webhookBackoffMs: e.SANDBOX_WEBHOOK_BACKOFF_MS,
    logRequests: e.SANDBOX_LOG_REQUESTS,
    idempotencyHeader: e.ELIGIBILITY_IDEMPOTENCY_HEADER,
    v1NpiField: e.ELIGIBILITY_V1_NPI_FIELD,
    v1TaxonomyField: e.ELIGIBILITY_V1_TAXONOMY_FIELD,
    faults: {
      error500Rate: e.SANDBOX_FAULT_500_RATE,
      error429Rate: e.SANDBOX_FAULT_429_RATE,
      latencyMs: e.SANDBOX_FAULT_LATENCY_MS,
      retryAfterSeconds: e.SANDBOX_FAULT_RETRY_AFTER_SECONDS,
      dropResponses: e.SANDBOX_FAULT_DROP_RESPONSES,
      webhookDuplicateRate: e.SANDBOX_FAULT_WEBHOOK_DUPLICATE_RATE,
      webhookDropRate: e.SANDBOX_FAULT_WEBHOOK_DROP_RATE,
      webhookReorder: e.SANDBOX_FAULT_WEBHOOK_REORDER,
    },
  };
}

export type SandboxConfig = ReturnType<typeof loadSandboxConfig>;

/** What a sandbox deployed apart must set (`required` above). */
export function sandboxRequiredInDeployment(): (keyof SandboxVariables)[] {
  return (Object.keys(sandboxVariables) as (keyof SandboxVariables)[]).filter(
    (name) => (sandboxVariables[name] as SandboxVariable).required === true,
  );
}
