import type { FastifyRequest } from 'fastify';
import { DatabaseThrottleStore } from '../../src/access/sign-in-throttle-store.js';
import {
  addressOf,
  MemoryThrottleStore,
  nameKey,
  SIGN_IN_LIMITS,
  SignInThrottle,
  type SignInLimits,
  type Throttled,
} from '../../src/access/sign-in-throttle.js';
import type { Store } from '../../src/store/database.js';

/**
 * The password form's limits (docs/operating/console.md): failures per typed name and per address, kept in the
 * database when there is one (every console process counts the same failures), else in this process.
 */
export class ConsoleSignInThrottle {
  private readonly throttle: SignInThrottle;
  private readonly limits: SignInLimits;

  /** `secret` keys the typed names (CONSOLE_SESSION_SECRET, which every console process of a deployment shares). */
  constructor(
    private readonly secret: string,
    options: { store?: Store; limits?: SignInLimits } = {},
  ) {
    this.throttle = new SignInThrottle(
      options.store ? new DatabaseThrottleStore(options.store) : new MemoryThrottleStore(),
    );
    this.limits = options.limits ?? SIGN_IN_LIMITS;
  }

  private byName(name: string): Throttled {
    return { key: `console-name:${nameKey(this.secret, name)}`, rule: this.limits.name };
  }

  private keys(request: FastifyRequest, name: string): Throttled[] {
    return [this.byName(name), { key: `console-address:${addressOf(request.ip)}`, rule: this.limits.address }];
  }

  /** Seconds the form asks this attempt to wait (0: it is checked). */
  waitSeconds(request: FastifyRequest, name: string): Promise<number> {
    return this.throttle.waitSeconds(this.keys(request, name));
  }

  failed(request: FastifyRequest, name: string): Promise<void> {
    return this.throttle.failed(this.keys(request, name));
  }

  /** Clears the name's failures, not the address's: signing in to one account must not buy guesses at others. */
  succeeded(name: string): Promise<void> {
    return this.throttle.succeeded(this.byName(name));
  }
}
