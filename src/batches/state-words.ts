import type { BatchCounts, BatchState } from '../../workflows/batch/batch.js';
import { plural } from '../text-format.js';
import { groupOf, RUNNING_STAGES } from '../../workflows/shared/stages.js';

const WORDS: Record<BatchState, string> = {
  starting: 'starting its rows',
  running: 'running',
  settled: 'nothing on its way',
  finished: 'every item has ended; open for resubmissions until it closes',
  closed: 'closed',
  cancelling: 'being cancelled',
  cancelled: 'cancelled',
  failed: 'ended with an error',
  terminated: 'stopped from outside',
};

/**
 * A batch's state in people's words, one wording for the console, the CLI and the API's description. A settled batch
 * may still hold items that wait for a person or for their grace period: they have not ended, so it says so.
 */
export function batchStateWords(view: { state: BatchState; counts: BatchCounts }): string {
  const words = WORDS[view.state] ?? view.state;
  if (view.state !== 'settled') return words;
  const { running } = view.counts;
  // The stage table says which stages wait for a person (its `needs input` group).
  const person = RUNNING_STAGES.filter((stage) => groupOf(stage) === 'needs input').reduce((n, s) => n + running[s], 0);
  const grace = running.created;
  const waiting = [
    ...(person > 0 ? [`${plural(person, 'item')} waiting for a person`] : []),
    ...(grace > 0 ? [`${plural(grace, 'item')} in their grace period`] : []),
  ];
  return waiting.length > 0 ? `${words}; not ended: ${waiting.join(', ')}` : words;
}
