import type { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseThrottleStore } from '../../src/access/sign-in-throttle-store.js';
import {
  addressOf,
  FAILED_KEY_LIMIT,
  MemoryThrottleStore,
  SignInThrottle,
  type Throttled,
  type ThrottleRule,
} from '../../src/access/sign-in-throttle.js';
import { ConfigError, type IntakeConfig } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';

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

/**
 * Failed keys per address (docs/integrating/intake-api.md): kept in the database when there is one (every intake API
 * process counts the same failures), else in this process. A blocked address is answered 429 before its key is
 * looked up, whatever key it sends: a guess is never checked, and a right one cannot be told from a wrong one.
 */
export class FailedKeys {
  private readonly throttle: SignInThrottle;
  private readonly limit: ThrottleRule;

  constructor(options: { store?: Store; limit?: ThrottleRule } = {}) {
    this.throttle = new SignInThrottle(
      options.store ? new DatabaseThrottleStore(options.store) : new MemoryThrottleStore(),
    );
    this.limit = options.limit ?? FAILED_KEY_LIMIT;
  }

  private keys(request: FastifyRequest): Throttled[] {
    return [{ key: `intake-address:${addressOf(request.ip)}`, rule: this.limit }];
  }

  /** Seconds the address is asked to wait (0: its key is checked). */
  waitSeconds(request: FastifyRequest): Promise<number> {
    return this.throttle.waitSeconds(this.keys(request));
  }

  failed(request: FastifyRequest): Promise<void> {
    return this.throttle.failed(this.keys(request));
  }
}

/** The answer to a blocked address: 429, `Retry-After`, the API's error shape; nothing of the request said back. */
export const tooManyFailedKeys = (reply: FastifyReply, seconds: number) =>
  reply
    .code(429)
    .header('retry-after', String(seconds))
    .send({ error: 'too_many_requests', message: `too many wrong ${API_KEY_HEADER} values from this address` });
