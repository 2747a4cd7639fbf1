import cliProgress from 'cli-progress';
import type { RetryNotice, StartOutcome } from './start-requests.js';

export interface StartCounts {
  started: number;
  duplicate: number;
  failed: number;
  /** Rows waiting to be retried because Temporal was unavailable. */
  retrying: number;
}

export interface BatchProgress {
  record: (outcome: StartOutcome) => void;
  retry: (notice: RetryNotice) => void;
  stop: () => void;
}

const describe = (done: number, total: number, c: StartCounts) =>
  `${done}/${total} (started ${c.started}, duplicate ${c.duplicate}, failed ${c.failed}` +
  `${c.retrying > 0 ? `; ${c.retrying} waiting for Temporal, retrying` : ''})`;

/**
 * Progress of a batch's starts: a bar when stdout is a terminal; otherwise (CI, a pipe, a log file) a plain line
 * every `intervalMs` and one at the end, since a redrawn bar would leave control characters in the log. Rows retried
 * because Temporal is unavailable are counted until they finish.
 */
export function batchProgress(total: number, options: { tty: boolean; intervalMs?: number }): BatchProgress {
  const counts: StartCounts = { started: 0, duplicate: 0, failed: 0, retrying: 0 };
  const retrying = new Set<number>();
  let done = 0;
  const finish = (outcome: StartOutcome) => {
    counts[outcome.status] += 1;
    retrying.delete(outcome.row);
    counts.retrying = retrying.size;
    done += 1;
  };
  const wait = (notice: RetryNotice) => {
    retrying.add(notice.row);
    counts.retrying = retrying.size;
  };
  if (options.tty) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stdout,
        format:
          'starting {bar} {value}/{total} | started {started} duplicate {duplicate} failed {failed} | ' +
          'retrying {retrying} | {eta}s',
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, counts);
    return {
      record: (outcome) => {
        finish(outcome);
        bar.increment(1, counts);
      },
      retry: (notice) => {
        wait(notice);
        bar.update(counts);
      },
      stop: () => bar.stop(),
    };
  }
  const print = () => console.log(`starting: ${describe(done, total, counts)}`);
  const timer = setInterval(print, options.intervalMs ?? 2000);
  timer.unref();
  return {
    record: finish,
    retry: wait,
    stop: () => {
      clearInterval(timer);
      print();
    },
  };
}
