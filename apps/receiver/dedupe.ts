export interface DedupeOptions {
  ttlMs: number;
  maxEntries: number;
  /** The clock (tests pass their own). */
  now?: () => number;
}

export type DedupeOutcome = 'handled' | 'duplicate';

/**
 * Remembers handled event ids in memory, bounded in count and age. An id is remembered only after its work
 * succeeded, so a delivery that failed (and was answered 503) is handled again when the sender retries; a duplicate
 * arriving while the first copy is still being handled waits for that work and shares its outcome.
 */
export class EventDeduplicator {
  /** id -> when it is forgotten; Map order is insertion order, so the oldest entries come first. */
  private readonly handled = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly options: DedupeOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.handled.size;
  }

  async run(eventId: string, work: () => Promise<void>): Promise<DedupeOutcome> {
    if (this.seen(eventId)) return 'duplicate';
    const running = this.inFlight.get(eventId);
    if (running) {
      await running;
      return 'duplicate';
    }
    const promise = work().then(() => this.remember(eventId));
    this.inFlight.set(eventId, promise);
    try {
      await promise;
    } finally {
      this.inFlight.delete(eventId);
    }
    return 'handled';
  }

  private seen(eventId: string): boolean {
    const expiresAt = this.handled.get(eventId);
    if (expiresAt === undefined) return false;
    if (expiresAt > this.now()) return true;
    this.handled.delete(eventId);
    return false;
  }

  private remember(eventId: string): void {
    const now = this.now();
    this.handled.delete(eventId);
    this.handled.set(eventId, now + this.options.ttlMs);
    // Every entry lives equally long, so expired ones are at the front; past the bound the oldest goes first.
    for (const [id, expiresAt] of this.handled) {
      if (expiresAt > now && this.handled.size <= this.options.maxEntries) break;
      this.handled.delete(id);
    }
  }
}
