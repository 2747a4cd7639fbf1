import cliProgress from 'cli-progress';
import type { StartOutcome } from '../intake/start-requests.js';

export interface StartCounts {
  started: number;
  duplicate: number;
  failed: number;
}

export interface BatchProgress {
  record: (outcome: StartOutcome) => void;
  stop: () => void;
}

const describe = (done: number, total: number, c: StartCounts) =>
  `${done}/${total} (started ${c.started}, duplicate ${c.duplicate}, failed ${c.failed})`;

/**
 * Progress of a batch's starts: a bar when stdout is a terminal; otherwise (CI, a pipe, a log file) a plain line
 * every `intervalMs` and one at the end, since a redrawn bar would leave control characters in the log.
 */
export function batchProgress(total: number, options: { tty: boolean; intervalMs?: number }): BatchProgress {
  const counts: StartCounts = { started: 0, duplicate: 0, failed: 0 };
  let done = 0;
  if (options.tty) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stdout,
        format: 'starting {bar} {value}/{total} | started {started} duplicate {duplicate} failed {failed} | {eta}s',
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, counts);
    return {
      record: (outcome) => {
        counts[outcome.status] += 1;
        bar.increment(1, counts);
      },
      stop: () => bar.stop(),
    };
  }
  const print = () => console.log(`starting: ${describe(done, total, counts)}`);
  const timer = setInterval(print, options.intervalMs ?? 2000);
  timer.unref();
  return {
    record: (outcome) => {
      counts[outcome.status] += 1;
      done += 1;
    },
    stop: () => {
      clearInterval(timer);
      print();
    },
  };
}
