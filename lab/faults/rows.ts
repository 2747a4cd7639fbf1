import type { Client } from '@temporalio/client';
import { VerificationIntake } from '../../src/contract/index.js';
import { startRequests, type StartOutcome } from './start-requests.js';
import type { ValidRow } from '../../src/intake-files/validate-rows.js';
import { SUITE_TIMING } from './stack.js';

/** Rows of a scenario: valid requests for the sandbox's seed (payer 60054, legacy patient 1000001), one caller id each. */

export type Version = 'v1' | 'v2';

export function requestFor(version: Version, callerId: string): Record<string, unknown> {
  return version === 'v1'
    ? {
        version: 'v1',
        id: callerId,
        patientId: '1000001',
        memberId: 'M123456',
        payerId: '60054',
        npi: '1234567893',
        taxonomyCode: '207Q00000X',
      }
    : {
        id: callerId,
        patient: { firstName: 'Avery', lastName: 'Quinn', dateOfBirth: '04/12/1987', state: 'WA', memberId: 'M123456' },
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'PHT',
      };
}

/** `versions[i]` is the version of row i; its caller id is `<prefix>-<i>`. */
export function scenarioRows(prefix: string, versions: readonly Version[]): ValidRow[] {
  return versions.map((version, i) => ({
    row: i + 1,
    line: i + 2,
    request: VerificationIntake.parse(requestFor(version, `${prefix}-${i}`)),
  }));
}

export const alternating = (n: number): Version[] => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'v1' : 'v2'));

export const callerIdsOf = (rows: readonly ValidRow[]) => rows.map((r) => r.request.id!);

/** Starts the rows straight from this process (./start-requests.ts), 8 at a time; returns a one-line summary. */
export async function startBatch(client: Client, taskQueue: string, rows: readonly ValidRow[]): Promise<string> {
  const outcomes: StartOutcome[] = await startRequests(client, rows, {
    taskQueue,
    concurrency: 8,
    timing: SUITE_TIMING,
  });
  const count = (status: StartOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  return `${count('started')} started, ${count('duplicate')} duplicate, ${count('failed')} failed to start`;
}
