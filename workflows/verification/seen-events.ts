/** Deliveries a workflow remembers: a webhook is redelivered within minutes or hours, not after a hundred others. */
const MAX_SEEN = 100;
/** Longer ids are not remembered (the receiver hashes long ones; anything else did not come from it). */
const MAX_EVENT_ID_LENGTH = 200;

/**
 * Webhook event ids this workflow has acted on, newest last, bounded. The workflow, not the receiver's memory, is where
 * a delivery is recognised as seen (issue 11): the same event reaching it twice (a redelivery after a receiver
 * restart, or the same delivery sent to two receiver replicas) has one effect. A signal without an event id (an
 * operator, an older receiver) always counts.
 */
export class SeenEvents {
  private readonly ids: string[] = [];

  /** True when `eventId` was seen before and may be ignored; otherwise remembers it. */
  repeated(eventId: unknown): boolean {
    if (typeof eventId !== 'string' || eventId.length === 0 || eventId.length > MAX_EVENT_ID_LENGTH) return false;
    if (this.ids.includes(eventId)) return true;
    this.ids.push(eventId);
    if (this.ids.length > MAX_SEEN) this.ids.shift();
    return false;
  }
}
