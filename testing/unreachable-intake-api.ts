import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { createIntakeApi, type IntakeApiOptions } from '../apps/intake-api/api.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { TEST_INTAKE_KEY } from './fixtures.js';

/**
 * The intake API built in-process over a Temporal server that cannot be reached (a lazy connection never used): its
 * routes, its document, and every refusal made before a Temporal call. `env` adds to its configuration.
 */
export function unreachableIntakeApi(
  env: Record<string, string> = {},
  options: Partial<IntakeApiOptions> = {},
): { api: FastifyInstance; close: () => Promise<unknown> } {
  const config = loadConfig('intake', { LOG_LEVEL: 'silent', INTAKE_API_KEY: TEST_INTAKE_KEY, ...env });
  const connection = Connection.lazy({ address: '127.0.0.1:1' });
  const api = createIntakeApi({
    config,
    client: new Client({ connection }),
    taskQueue: 'q',
    logger: createLogger(config),
    ...options,
  });
  return { api, close: () => Promise.all([api.close(), connection.close()]) };
}
