import { LRUCache } from 'lru-cache';
import type { Payer } from '../contract/index.js';
import { NotFoundError } from '../client/errors.js';

/** What the console shows of a payer: its name, and the other ids and names it is known by. */
export interface PayerName {
  payerId: string;
  name: string;
  aliasIds: readonly string[];
  aliasNames: readonly string[];
}

/** Payer names as a start reads them: known now, or not (src/payers `PayerNames.nameNow`). */
export type PayerNamesNow = Pick<PayerNames, 'nameNow'>;

/** The one call the cache makes: `EligibilityClient.getPayer`. */
export interface PayerSource {
  getPayer(payerId: string, opts?: { signal?: AbortSignal }): Promise<Payer>;
}

export interface PayerNamesOptions {
  /** How long a payer's name is kept (default 24 h: payers are renamed rarely). */
  ttlMs?: number;
  /** How long an id the service does not know is remembered as unknown (default 10 min). */
  unknownTtlMs?: number;
  /** A page waits this long for names, then shows ids (default 1.5 s): a slow service never holds a page. */
  waitMs?: number;
}

/**
 * Payer names from the service's payer endpoint (`GET /v1/payers/{id}`), cached: one call per payer a day, however
 * many pages show it, and an alias id is cached as its payer with the rest. A page asks for all its ids at once and
 * gets what is known within `waitMs`; an id with no name (unknown, the service slow or down) is shown as the id.
 */
export class PayerNames {
  readonly #cache: LRUCache<string, PayerName | 'unknown'>;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #waitMs: number;
  readonly #unknownTtlMs: number;

  constructor(
    private readonly source: PayerSource,
    options: PayerNamesOptions = {},
  ) {
    this.#cache = new LRUCache({ max: 5_000, ttl: options.ttlMs ?? 24 * 3_600_000 });
    this.#waitMs = options.waitMs ?? 1_500;
    this.#unknownTtlMs = options.unknownTtlMs ?? 600_000;
  }

  /** The names known of `ids` (duplicates and undefined allowed), fetching the missing ones within the wait. */
  async names(ids: Iterable<string | null | undefined>): Promise<Map<string, PayerName>> {
    const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
    const missing = wanted.filter((id) => !this.#cache.has(id));
    if (missing.length > 0) {
      const fetches = Promise.all(missing.map((id) => this.#fetch(id)));
      await Promise.race([fetches, new Promise((resolve) => setTimeout(resolve, this.#waitMs).unref())]);
    }
    const known = new Map<string, PayerName>();
    for (const id of wanted) {
      const entry = this.#cache.get(id);
      if (entry && entry !== 'unknown') known.set(id, entry);
    }
    return known;
  }

  /** A payer's name if it is known now; an id not asked yet is fetched for next time. Never waits: a start cannot. */
  nameNow(id: string): string | undefined {
    const entry = this.#cache.get(id);
    if (entry === undefined) void this.#fetch(id);
    return entry === undefined || entry === 'unknown' ? undefined : entry.name;
  }

  #fetch(id: string): Promise<void> {
    const running = this.#inFlight.get(id);
    if (running) return running;
    const fetching = this.source
      .getPayer(id, { signal: AbortSignal.timeout(10_000) })
      .then((payer) => {
        const name: PayerName = {
          payerId: payer.payerId,
          name: payer.payerName,
          aliasIds: payer.aliasPayerIds,
          aliasNames: payer.aliasPayerNames,
        };
        for (const known of new Set([id, payer.payerId, ...payer.aliasPayerIds])) this.#cache.set(known, name);
      })
      .catch((err: unknown) => {
        // Unknown is remembered a while; any other failure (the service slow or down) is asked again next page.
        if (err instanceof NotFoundError) this.#cache.set(id, 'unknown', { ttl: this.#unknownTtlMs });
      })
      .finally(() => this.#inFlight.delete(id));
    this.#inFlight.set(id, fetching);
    return fetching;
  }
}
