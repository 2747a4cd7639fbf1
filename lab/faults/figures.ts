import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { resolveNeedsReview, type ReviewOutcome } from './needs-review.js';
import type { SandboxControl } from './sandbox-control.js';
import type { RowResult } from './settle.js';

/** One line of the final table. Undefined figures do not apply to the scenario and print as `-`. */
export interface ScenarioFigures {
  scenario: string;
  rows: number;
  /** Verifications at the service (fuzz: workflows started). */
  created: number;
  /** Distinct caller ids among them. */
  distinct: number;
  duplicates: number;
  lost: number;
  needsReview?: { total: number; resolved: number };
  invalidAccepted?: number;
  /** Answers whose value came back in the body (patient data must never be echoed). */
  echoed?: number;
  /** 5xx answered by the intake API while Temporal was up; `duringOutage` while it was down. */
  fiveXx?: { whileUp: number; duringOutage?: number };
}

/** The service's side and the workflows' side of a scenario, with the needs-review items put to a person. */
export interface ServiceTally {
  figures: ScenarioFigures;
  reviews: ReviewOutcome[];
  lostRows: RowResult[];
  duplicatesByVersion: { v1: number; v2: number };
}

/**
 * Sends every needs-review item to `resolveNeedsReview`, then counts what the service created for a scenario's caller
 * ids (`GET /sandbox/verifications`, after the retries people decided) and how its workflows ended.
 */
export async function tallyScenario(
  client: Client,
  scenario: string,
  rows: readonly RowResult[],
  sandbox: SandboxControl,
): Promise<ServiceTally> {
  const reviews: ReviewOutcome[] = [];
  let createdByCallerId = await sandbox.verificationsByCallerId();
  for (const row of rows.filter((r) => r.state === 'needs-review')) {
    const found = (createdByCallerId.get(row.callerId) ?? []).map((v) => v.verificationId);
    reviews.push(await resolveNeedsReview(client, row.workflowId, found));
  }
  // A retry a person decided creates after the review: count the service once those calls have been made.
  const retried = reviews.filter((r) => r.resolved && r.decision === 'retry').length;
  const withVerification = () => rows.filter((r) => (createdByCallerId.get(r.callerId) ?? []).length > 0).length;
  const expected = withVerification() + retried;
  for (const deadline = Date.now() + 60_000; retried > 0 && Date.now() < deadline;) {
    createdByCallerId = await sandbox.verificationsByCallerId();
    if (withVerification() >= expected) break;
    await sleep(500);
  }
  let created = 0;
  let distinct = 0;
  const duplicatesByVersion = { v1: 0, v2: 0 };
  for (const row of rows) {
    const found = createdByCallerId.get(row.callerId) ?? [];
    created += found.length;
    if (found.length > 0) distinct += 1;
    if (found.length > 1) duplicatesByVersion[found[0]!.version] += found.length - 1;
  }
  const lostRows = rows.filter((r) => r.state === 'lost');
  return {
    figures: {
      scenario,
      rows: rows.length,
      created,
      distinct,
      duplicates: created - distinct,
      lost: lostRows.length,
      needsReview: { total: reviews.length, resolved: reviews.filter((r) => r.resolved).length },
    },
    reviews,
    lostRows,
    duplicatesByVersion,
  };
}

/** The lines a scenario prints about itself: service counts, how rows ended, which were lost and why. */
export function describeTally(tally: ServiceTally, rows: readonly RowResult[]): string[] {
  const f = tally.figures;
  const count = (state: RowResult['state']) => rows.filter((r) => r.state === state).length;
  const lines = [
    `  service: ${f.created} verifications created for ${f.distinct} distinct caller ids of ${f.rows} rows` +
      ` -> ${f.duplicates} duplicates (v1 ${tally.duplicatesByVersion.v1}, v2 ${tally.duplicatesByVersion.v2})`,
    `  workflows: ${count('verified')} verified, ${count('needs-review')} needs-review` +
      ` (${f.needsReview?.resolved ?? 0} resolved, ${(f.needsReview?.total ?? 0) - (f.needsReview?.resolved ?? 0)}` +
      ` unresolved), ${count('lost')} lost`,
  ];
  const reasons = new Map<string, number>();
  for (const row of tally.lostRows) reasons.set(row.detail, (reasons.get(row.detail) ?? 0) + 1);
  for (const [detail, n] of reasons) lines.push(`    lost: ${n} x ${detail}`);
  const notes = new Map<string, number>();
  for (const review of tally.reviews) notes.set(review.note, (notes.get(review.note) ?? 0) + 1);
  for (const [note, n] of notes) lines.push(`    needs-review: ${n} x ${note}`);
  return lines;
}
