import type { EventDelivery } from '../../src/events/delivery/index.js';
import type { EventActivities } from '../../workflows/events/index.js';

/** The activity an earlier version's dispatcher hands over with, on the events task queue (decision 80). */
export function createEventActivities(delivery: Pick<EventDelivery, 'takeOver'>): EventActivities {
  return { takeOver: (handover) => delivery.takeOver(handover) };
}
