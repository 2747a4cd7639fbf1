import type { BatchBook } from './batch-book.js';
import type { EventEmitter } from '../shared/event-emitter.js';

/**
 * A batch's events (docs/integrating/events.md): `batch.settled` once nothing is on its way (a batch that finishes at
 * once settles too), `batch.finished` once every item has closed or the batch was cancelled; each once per resubmission
 * round. Counts and identifiers only.
 */
export function announceBatch(batchId: string, state: BatchBook, events: EventEmitter): void {
  const phase = state.phase();
  if (phase !== 'settled' && phase !== 'finished' && phase !== 'cancelled') return;
  const data = { batchId, phase, round: state.round, counts: state.counts() };
  const self = `/batches/${encodeURIComponent(batchId)}`;
  if (state.announced.settled !== state.round) {
    state.announced.settled = state.round;
    events.emit('batch.settled', data, self);
  }
  if (phase !== 'settled' && state.announced.finished !== state.round) {
    state.announced.finished = state.round;
    events.emit('batch.finished', data, self);
  }
}
