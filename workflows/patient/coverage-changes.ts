import type { CoverageChangeKind, CoverageEntry } from './patient.js';

/**
 * What changed between the patient's previous outcome and this one (issue 35). `previous` is the latest entry before
 * `current`. A failure is compared with the last answer before it: coverage is never "lost" because a call failed,
 * and a failure after an answer is itself a change (`verification-failing`), reported once, not at every retry.
 */
export function coverageChanges(previous: readonly CoverageEntry[], current: CoverageEntry): CoverageChangeKind[] {
  const last = previous.at(-1);
  if (last === undefined) return [];
  if (current.coverage === 'failed') return last.coverage === 'failed' ? [] : ['verification-failing'];
  const answered = latestAnswer(previous);
  if (answered === undefined) return [];
  if (answered.coverage !== current.coverage) {
    return [current.coverage === 'covered' ? 'coverage-found' : 'coverage-lost'];
  }
  if (current.coverage !== 'covered') return [];
  const kinds: CoverageChangeKind[] = [];
  if (differs(answered.payerId, current.payerId)) kinds.push('payer-changed');
  if (differs(answered.memberId, current.memberId)) kinds.push('member-id-changed');
  return kinds;
}

/** Both known and different: an unknown value (a check without a discovery) is no evidence of a change. */
const differs = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a !== b;

/** The latest entry that answered (covered or not): a failure answers nothing. */
export function latestAnswer(timeline: readonly CoverageEntry[]): CoverageEntry | undefined {
  for (let i = timeline.length - 1; i >= 0; i--) if (timeline[i]!.coverage !== 'failed') return timeline[i];
  return undefined;
}
