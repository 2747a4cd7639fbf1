import { progressGroups } from '../../src/batches/groups.js';
import { fields, table } from '../../src/text-format.js';
import type { FaultRunFigures } from './fault-run.js';
import { secondsAfter } from './recovery.js';

/** Batch items that ended without a verification or never ended: failed, cancelled, or still in progress. */
export function lostItems(f: FaultRunFigures): number {
  const groups = progressGroups(f.batch.view.counts);
  return groups.failed + groups.cancelled + groups['in progress'];
}

/** The printed figures: one line per fault, then the counts. */
export function faultReport(f: FaultRunFigures): string {
  const groups = progressGroups(f.batch.view.counts);
  const webhooks = f.stats.webhookDeliveries;
  const injected = (status: string) =>
    Object.values(f.stats.calls).reduce((sum, byStatus) => sum + (byStatus[status] ?? 0), 0);
  const faults = table(
    ['fault', 'struck at (created)', 'component back after', 'creating again after', 'engine down'],
    f.faults.map((r) => [
      r.fault,
      `${r.createdAt}/${f.items}`,
      secondsAfter(r, r.backAt),
      secondsAfter(r, r.progressAt),
      r.engineDown ? 'yes' : 'no',
    ]),
  );
  const counts = fields([
    ['batch', `${f.batch.view.batchId} ${f.batch.view.state} in ${f.batchSeconds.toFixed(0)} s`],
    ['completed', `${groups.completed}/${f.items}`],
    [
      'lost',
      `${lostItems(f)} (failed ${groups.failed}, cancelled ${groups.cancelled}, in progress ${groups['in progress']})`,
    ],
    [
      'other outcomes',
      `no coverage ${groups['no-coverage']}, needs input ${groups['needs input']}, duplicate rows ${groups.duplicate}`,
    ],
    [
      'duplicates at the service',
      `${f.batch.duplicates} caller ids of the batch with 2+ verifications (sandbox records)`,
    ],
    [
      'intake caller',
      `${f.stream.rows} patients: ${f.stream.distinct} created, ${f.stream.duplicates} duplicates, ${f.stream.lost} lost` +
        ` (needs-review ${f.stream.needsReview?.total ?? 0}, resolved ${f.stream.needsReview?.resolved ?? 0})`,
    ],
    ['intake 5xx', `${f.intake.duringOutage} while the engine was down, ${f.intake.whileUp} while it was up`],
    [
      'service faults',
      `${injected('500')} x 500, ${f.stats.tooManyRequestsSent} x 429, ${f.stats.responsesDropped} responses dropped`,
    ],
    [
      'webhooks',
      `${webhooks.attempted} attempts to 2 receivers: ${webhooks.succeeded} ok, ${webhooks.failed} failed,` +
        ` ${webhooks.abandoned} abandoned; ${webhooks.dropped} events dropped; duplicated 30 %, reordered`,
    ],
    [
      'supervisor restarts',
      Object.entries(f.restarts)
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ') || 'none',
    ],
  ]);
  return `${faults}\n\n${counts}`;
}

/** Why the run fails: anything lost or duplicated, a 5xx while the engine was up, a component that never came back. */
export function faultRunFailures(f: FaultRunFigures): string[] {
  const reasons: string[] = [];
  if (lostItems(f) > 0) reasons.push(`${lostItems(f)} batch items lost`);
  if (f.batch.duplicates > 0) reasons.push(`${f.batch.duplicates} batch items duplicated at the service`);
  if (f.stream.lost > 0) reasons.push(`${f.stream.lost} intake patients lost`);
  if (f.stream.duplicates > 0) reasons.push(`${f.stream.duplicates} intake patients duplicated at the service`);
  if (f.intake.whileUp > 0) reasons.push(`${f.intake.whileUp} intake 5xx while the engine was up`);
  for (const r of f.faults) {
    if (r.backAt === undefined || r.progressAt === undefined) reasons.push(`${r.fault}: no recovery`);
  }
  return reasons;
}
