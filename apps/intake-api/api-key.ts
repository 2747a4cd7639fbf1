import { ConfigError, type IntakeConfig } from '../../src/config.js';

export const API_KEY_HEADER = 'x-api-key';

/**
 * The intake API's single-tenant key, where no intake clients are kept (no DATABASE_URL). There is no default: a
 * published one would let anyone who read the README start verifications, so outside `eligibility dev` (which makes
 * one in its data directory) the API refuses to start without either, whatever NODE_ENV says.
 */
export function requireIntakeApiKey(config: Pick<IntakeConfig, 'apiKey'>): string {
  if (config.apiKey === undefined) {
    throw new ConfigError([
      {
        variable: 'INTAKE_API_KEY',
        message:
          'is required without DATABASE_URL (intake clients): the intake API has no default key (e.g. openssl rand -hex 32)',
      },
    ]);
  }
  return config.apiKey;
}
