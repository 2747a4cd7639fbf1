import { table } from '../../src/text-format.js';
import type { ScenarioFigures } from './figures.js';

/** The final table: one line per scenario, `-` where a figure does not apply. */
export function finalTable(all: readonly ScenarioFigures[]): string {
  return table(
    [
      'scenario',
      'rows',
      'created',
      'distinct ids',
      'duplicates',
      'lost',
      'needs-review',
      'invalid accepted',
      'echoed',
      '5xx while up',
    ],
    all.map((f) => [
      f.scenario,
      f.rows,
      f.created,
      f.distinct,
      f.duplicates,
      f.lost,
      f.needsReview ? `${f.needsReview.total} (${f.needsReview.resolved} resolved)` : undefined,
      f.invalidAccepted,
      f.echoed,
      f.fiveXx
        ? `${f.fiveXx.whileUp}${f.fiveXx.duringOutage === undefined ? '' : ` (${f.fiveXx.duringOutage} during outage)`}`
        : undefined,
    ]),
  );
}

/** Why the suite fails: duplicates, losses, invalid requests accepted, values echoed, 5xx while Temporal was up. */
export function failures(all: readonly ScenarioFigures[]): string[] {
  const reasons: string[] = [];
  for (const f of all) {
    if (f.duplicates > 0) reasons.push(`${f.scenario}: ${f.duplicates} duplicates`);
    if (f.lost > 0) reasons.push(`${f.scenario}: ${f.lost} lost`);
    if ((f.invalidAccepted ?? 0) > 0) reasons.push(`${f.scenario}: ${f.invalidAccepted} invalid accepted`);
    if ((f.echoed ?? 0) > 0) reasons.push(`${f.scenario}: ${f.echoed} answers echoed the value`);
    if ((f.fiveXx?.whileUp ?? 0) > 0) reasons.push(`${f.scenario}: ${f.fiveXx?.whileUp} 5xx while Temporal was up`);
  }
  return reasons;
}

export interface AcceptanceInput {
  droppedV1: ScenarioFigures & { dropped: number };
  droppedV2: ScenarioFigures;
  kills: ScenarioFigures;
  restart: ScenarioFigures;
  fuzz: ScenarioFigures;
}

/** Issue 11's acceptance, one line each, read off the figures above. */
export function acceptanceLines(a: AcceptanceInput): string[] {
  const line = (ok: boolean, claim: string, measured: string) => `  [${ok ? ' OK ' : 'FAIL'}] ${claim}: ${measured}`;
  const faulted = [a.droppedV1, a.droppedV2, a.kills];
  const duplicates = faulted.map((f) => f.duplicates);
  const lost = faulted.map((f) => f.lost);
  const review = (f: ScenarioFigures) => f.needsReview ?? { total: 0, resolved: 0 };
  const v1 = review(a.droppedV1);
  const kills = review(a.kills);
  const sum = (ns: number[]) => ns.reduce((s, n) => s + n, 0);
  return [
    line(
      sum(duplicates) === 0,
      'dropped responses (v1, v2) and worker kills: 0 duplicates at the service',
      `${duplicates.join(' + ')} duplicates`,
    ),
    line(
      v1.total === a.droppedV1.dropped && v1.resolved === v1.total && kills.resolved === kills.total,
      'every v1 ambiguity in needs-review and resolvable',
      `${a.droppedV1.dropped} v1 responses dropped -> ${v1.total} in needs-review (${v1.resolved} resolved); ` +
        `worker kills -> ${kills.total} in needs-review (${kills.resolved} resolved)`,
    ),
    line(sum(lost) === 0, 'nothing lost', `${lost.join(' + ')} lost`),
    line(
      (a.fuzz.invalidAccepted ?? 0) === 0,
      'fuzz: every invalid -> 400 naming a field, 0 workflows',
      `${a.fuzz.invalidAccepted} invalid accepted`,
    ),
    line(
      a.fuzz.lost === 0 && a.fuzz.duplicates === 0,
      'fuzz: every valid -> exactly 1 workflow',
      `${a.fuzz.distinct - a.fuzz.lost}/${a.fuzz.distinct} with one, ${a.fuzz.lost} with none, ${a.fuzz.duplicates} extra`,
    ),
    line(
      (a.fuzz.fiveXx?.whileUp ?? 0) === 0,
      'fuzz: 0 answers 5xx while Temporal is up',
      `${a.fuzz.fiveXx?.whileUp} 5xx`,
    ),
    line(
      a.restart.duplicates === 0 && a.restart.lost === 0 && (a.restart.fiveXx?.whileUp ?? 0) === 0,
      '(not in the acceptance) Temporal restart: no duplicate, nothing lost, no 5xx while up',
      `${a.restart.duplicates} duplicates, ${a.restart.lost} lost, ${a.restart.fiveXx?.whileUp} 5xx while up`,
    ),
  ];
}
