import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';

/**
 * One limit of failed sign-ins (docs/operating/access-and-audit.md): `failures` failures of a key within `windowMs`
 * block it for `blockMs`; a failure within `windowMs` of a block's end blocks it again for twice as long as the last
 * block, up to `maxBlockMs`. Only failures count: a signed-in operator or a valid key costs nothing, and an attempt
 * refused while blocked is not tried, so it does not count either.
 */
export interface ThrottleRule {
  failures: number;
  windowMs: number;
  blockMs: number;
  maxBlockMs: number;
}

const MINUTE = 60_000;

/** The console's password sign-in: per operator name (one account guessed at) and per address (many names tried). */
export interface SignInLimits {
  name: ThrottleRule;
  address: ThrottleRule;
}

export const SIGN_IN_LIMITS: SignInLimits = {
  name: { failures: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE, maxBlockMs: 60 * MINUTE },
  address: { failures: 20, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE, maxBlockMs: 60 * MINUTE },
};

/** The intake API's keys: failed keys per address. */
export const FAILED_KEY_LIMIT: ThrottleRule = {
  failures: 20,
  windowMs: 15 * MINUTE,
  blockMs: 15 * MINUTE,
  maxBlockMs: 60 * MINUTE,
};

/** What is kept of a key (milliseconds since the epoch); `blockedUntil` 0 when it was never blocked. */
export interface ThrottleState {
  failures: number;
  windowStart: number;
  blocks: number;
  blockedUntil: number;
}

/** The state after one more failure at `now`. */
export function afterFailure(previous: ThrottleState | undefined, rule: ThrottleRule, now: number): ThrottleState {
  const block = (blocks: number) => Math.min(rule.blockMs * 2 ** (blocks - 1), rule.maxBlockMs);
  // Attempts that were let through together before one of them blocked the key: the block stands as it is.
  if (previous && now < previous.blockedUntil) return { ...previous, failures: previous.failures + 1 };
  if (previous && previous.blocks > 0 && now < previous.blockedUntil + rule.windowMs) {
    // Straight back after a block: the next one is twice as long.
    const blocks = previous.blocks + 1;
    return { ...previous, failures: previous.failures + 1, blocks, blockedUntil: now + block(blocks) };
  }
  const fresh = !previous || now >= expiresAt(previous, rule);
  const state = fresh
    ? { failures: 1, windowStart: now, blocks: 0, blockedUntil: 0 }
    : { ...previous, failures: previous.failures + 1 };
  return state.failures >= rule.failures ? { ...state, blocks: 1, blockedUntil: now + block(1) } : state;
}

/** When a key's state is worth nothing any more: its window has passed, and a window since its last block. */
export const expiresAt = (state: ThrottleState, rule: ThrottleRule): number =>
  Math.max(state.windowStart + rule.windowMs, state.blockedUntil + rule.windowMs);

/** Where the states are kept: the database for every process alike (`SignInThrottleTable`), or one process's memory. */
export interface ThrottleStore {
  /** The latest `blockedUntil` of any of `keys` (0 when none is kept). */
  blockedUntil(keys: readonly string[]): Promise<number>;
  /** Counts one failure of `key` at `now`, atomically across processes. */
  fail(key: string, rule: ThrottleRule, now: number): Promise<void>;
  forget(key: string): Promise<void>;
}

/** One process's memory: a console or intake API without a database. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly states = new Map<string, { state: ThrottleState; expires: number }>();

  blockedUntil(keys: readonly string[]): Promise<number> {
    return Promise.resolve(Math.max(0, ...keys.map((key) => this.states.get(key)?.state.blockedUntil ?? 0)));
  }

  fail(key: string, rule: ThrottleRule, now: number): Promise<void> {
    for (const [k, kept] of this.states) if (kept.expires <= now) this.states.delete(k);
    const state = afterFailure(this.states.get(key)?.state, rule, now);
    this.states.set(key, { state, expires: expiresAt(state, rule) });
    return Promise.resolve();
  }

  forget(key: string): Promise<void> {
    this.states.delete(key);
    return Promise.resolve();
  }
}

/** A key and the rule it is counted by. */
export interface Throttled {
  key: string;
  rule: ThrottleRule;
}

/** Failed sign-ins counted, and blocked keys refused before anything is checked. */
export class SignInThrottle {
  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whole seconds to wait before any of `keys` may try again (at least 1); 0 when none is blocked. */
  async waitSeconds(keys: readonly Throttled[]): Promise<number> {
    const until = await this.store.blockedUntil(keys.map((k) => k.key));
    const left = until - this.clock();
    return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : 0;
  }

  async failed(keys: readonly Throttled[]): Promise<void> {
    const now = this.clock();
    await Promise.all(keys.map(({ key, rule }) => this.store.fail(key, rule, now)));
  }

  /** A success clears its key: an operator's earlier typos do not count against their next sign-in. */
  async succeeded(key: Throttled): Promise<void> {
    await this.store.forget(key.key);
  }
}

/**
 * The address a limit counts: an IPv4 address (an IPv4-mapped IPv6 one too), or an IPv6 address's /64, since one
 * host commonly holds a whole /64 and would otherwise have 2^64 addresses to try from.
 */
export function addressOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * A typed name, as a key: keyed with a secret, since the name box sometimes holds a password typed in the wrong box,
 * and nothing typed there is kept readable.
 */
export const nameKey = (secret: string, name: string): string =>
  createHmac('sha256', secret)
    .update(`sign-in-name:${name.normalize('NFC')}`)
    .digest('base64url')
    .slice(0, 32);
