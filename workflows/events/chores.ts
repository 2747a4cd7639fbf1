import type { Chore } from './events.js';

export type { Chore };

/** Events kept in one bookkeeping activity at most: its input stays far under Temporal's 2 MB payload limit. */
const EVENTS_PER_CHORE = 500;

/**
 * The next chore, with every later one of the same endpoint and kind merged into it (up to EVENTS_PER_CHORE events):
 * while an endpoint's queue is full each event adds a chore, and one activity per event would fall behind the events,
 * holding up the continue-as-new that waits for them.
 */
export function takeChore(chores: Chore[]): Chore | undefined {
  const chore = chores.shift();
  if (!chore) return undefined;
  const events = [...chore.events];
  for (let i = 0; i < chores.length && events.length < EVENTS_PER_CHORE;) {
    const other = chores[i]!;
    if (
      other.endpointId === chore.endpointId &&
      other.reason === chore.reason &&
      events.length + other.events.length <= EVENTS_PER_CHORE
    ) {
      events.push(...other.events);
      // Disabling for the latest failure: one seen after a re-enable still disables.
      if (other.at !== undefined) chore.at = Math.max(chore.at ?? 0, other.at);
      chores.splice(i, 1);
    } else i++;
  }
  return { ...chore, events };
}
