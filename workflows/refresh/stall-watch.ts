import type { RefreshAnswered } from './refresh.js';

/**
 * The stall rule's clock: how many patients had taken the refresh at this look, and since when asking has gone without
 * one more. It is part of what a run carries across continue-as-new, so a refresh that continues as new every few
 * minutes still sees a stall of ten. A look that asked nobody restarts it.
 */
export function watchAnswers(
  before: RefreshAnswered | undefined,
  look: { at: number; asked: number; patients: number },
): RefreshAnswered {
  const grew = look.asked === 0 || before === undefined || look.patients > before.patients;
  return { patients: look.patients, since: grew ? look.at : before.since };
}

/** Asking has stalled: patients are still being asked, and for `stalledMs` not one more has taken the refresh. Judged
 * by time, not by looks: after a worker restart, answers wait seconds to a minute for the patients' replays and for
 * visibility, however often the refresh looks. */
export const hasStalled = (answered: RefreshAnswered, at: number, stalledMs: number): boolean =>
  at - answered.since >= stalledMs;
