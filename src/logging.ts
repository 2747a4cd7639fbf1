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
  };
  return destination ? pino(options, destination) : pino(options);
}
