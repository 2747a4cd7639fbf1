import type { Logger } from '../logging.js';
import type { DispatcherHandoff } from './handoff.js';
import type { EventOutbox } from './outbox.js';

export interface SweeperTiming {
  /** How often the outbox is looked at. */
  intervalMs: number;
  /** How long a row may stay its owner's (a first attempt under way, a handover signalling) before it is taken over. */
  graceMs: number;
}

/** A worker's first attempt takes 10 s at most and a handover a moment: a minute means the owner is gone. */
export const SWEEPER_TIMING: SweeperTiming = { intervalMs: 5_000, graceMs: 60_000 };

const BATCH = 500;

/**
 * Hands to the dispatchers what the outbox holds that no live process will (decision 60): the rows of a
 * worker that died before it delivered or handed them, and the rows held behind those. Every events worker runs one;
 * they never take one row twice. Returns a function that stops it.
 */
export function sweepOutboxEvery(
  outbox: EventOutbox,
  handoff: Pick<DispatcherHandoff, 'hand'>,
  logger: Logger,
  timing: SweeperTiming = SWEEPER_TIMING,
): () => void {
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      for (;;) {
        const rows = await outbox.sweep(timing.graceMs, BATCH);
        for (const row of rows) handoff.hand(row.endpointId, row.event);
        if (rows.length > 0)
          logger.info({ events: rows.length }, 'events left by a worker handed to their dispatchers');
        if (rows.length < BATCH) break;
      }
    } catch (err) {
      logger.warn({ error: (err as Error).name }, 'the outbox could not be swept; tried again shortly');
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), timing.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
