import type { AccessToken } from '../contract/index.js';

/**
 * A token is replaced once this share of its lifetime has passed, so a call never starts with a token about to
 * expire in flight (`expires_in` read as seconds, refreshed at 80%: docs/decisions/0001-service-contract-gaps.md).
 */
export const REFRESH_AT_FRACTION = 0.8;

/**
 * One access token per client: fetched on first use, shared by concurrent callers (a single in-flight request),
 * replaced ahead of expiry, and dropped when the service rejects it. The token lives only in a private field of the
 * worker process: never in errors, logs, or workflow history.
 */
export class TokenManager {
  readonly #fetchToken: () => Promise<AccessToken>;
  readonly #now: () => number;
  #token: string | undefined;
  #refreshAt = 0;
  #inFlight: Promise<string> | undefined;

  constructor(fetchToken: () => Promise<AccessToken>, now: () => number = Date.now) {
    this.#fetchToken = fetchToken;
    this.#now = now;
  }

  /** A token valid for a while yet; every caller arriving during a fetch waits for that same fetch. */
  async get(): Promise<string> {
    if (this.#token !== undefined && this.#now() < this.#refreshAt) return this.#token;
    // A failed fetch is not cached: the next call tries again (Temporal decides when that is). `finally` callbacks
    // always run later, so the slot is cleared only after it was filled, even if the fetch fails at once.
    this.#inFlight ??= this.#refresh().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /**
   * Drops `rejected` after the service answered 401/403 with it. A token fetched meanwhile by another caller is kept,
   * so fifty calls failing together on a revoked token cause one refresh, not fifty.
   */
  invalidate(rejected: string): void {
    if (this.#token === rejected) {
      this.#token = undefined;
      this.#refreshAt = 0;
    }
  }

  async #refresh(): Promise<string> {
    const started = this.#now();
    const { access_token, expires_in } = await this.#fetchToken();
    this.#token = access_token;
    // Counted from before the request, so a slow token endpoint cannot push the refresh past the expiry.
    this.#refreshAt = started + expires_in * 1000 * REFRESH_AT_FRACTION;
    return access_token;
  }
}
