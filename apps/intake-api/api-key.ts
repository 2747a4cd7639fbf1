import type { onRequestHookHandler } from 'fastify';
import { ConfigError, type IntakeConfig } from '../../src/config.js';
import { secretsEqual } from '../../src/contract/secrets-equal.js';

export const API_KEY_HEADER = 'x-api-key';

/**
 * The intake API's key. There is no default: a published one would let anyone who read the README start
 * verifications, so outside `eligibility dev` (which makes one in its data directory) the API refuses to start
 * without INTAKE_API_KEY, whatever NODE_ENV says.
 */
export function requireIntakeApiKey(config: Pick<IntakeConfig, 'apiKey'>): string {
  if (config.apiKey === undefined) {
    throw new ConfigError([
      {
        variable: 'INTAKE_API_KEY',
        message: 'is required: the intake API has no default key (e.g. openssl rand -hex 32)',
      },
    ]);
  }
  return config.apiKey;
}

/** Requires `x-api-key` on every route but the `open` ones; compared in constant time whatever the lengths. */
export function apiKeyGuard(apiKey: string, open: readonly string[]): onRequestHookHandler {
  return (request, reply, done) => {
    if (request.routeOptions.url !== undefined && open.includes(request.routeOptions.url)) return done();
    const given = request.headers[API_KEY_HEADER];
    if (secretsEqual(typeof given === 'string' ? given : undefined, apiKey)) return done();
    void reply.code(401).send({ error: 'unauthorized', message: `missing or wrong ${API_KEY_HEADER}` });
  };
}
