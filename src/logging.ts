import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * Patient data (PHI) that may appear in objects the project logs: removed wherever it appears, at any depth pino's
 * paths reach. Log identifiers (workflowId, verificationId, discoveryId, flowRunId, payerId), never patients.
 */
export const PHI_FIELDS = [
  'firstName',
  'lastName',
  'dateOfBirth',
  'memberId',
  'address',
  'patient',
  'subscriber',
  'input',
] as const;

const SECRET_FIELDS = ['authorization', 'access_token', 'client_secret', 'clientSecret', 'apiKey', 'password'] as const;

function redactPaths(): string[] {
  const fields = [...PHI_FIELDS, ...SECRET_FIELDS];
  // pino's redaction matches fixed depths: cover the field at the top and up to three levels down.
  return fields.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`, `req.headers.${f}`]);
}

/**
 * A copy of the plain objects and arrays of `value` (anything else is kept as is). pino's redaction censors fields in
 * place and puts them back after writing the line, but where two redaction paths overlap (`*.patient` and
 * `*.*.firstName`) the restore misses the inner ones: the logged object is left with `[redacted]` in it, and a caller
 * that logged a request before sending it would send the censor. Redacting a copy leaves the caller's intact.
 */
function copyPlain(value: unknown, depth = 0): unknown {
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => copyPlain(v, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyPlain(v, depth + 1)]));
}

/** The one logger of a process, configured here only. */
export function createLogger(
  config: Pick<Config, 'log'>,
  name = 'eligibility',
  destination?: DestinationStream,
): Logger {
  const options = {
    name,
    level: config.log.level,
    redact: { paths: redactPaths(), censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
    hooks: {
      logMethod(this: Logger, args: Parameters<Logger['info']>, method: Logger['info']) {
        const [first, ...rest] = args as unknown[];
        return method.apply(this, [copyPlain(first), ...rest] as Parameters<Logger['info']>);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
