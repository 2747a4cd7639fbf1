import { createHash, randomInt } from 'node:crypto';
import type { SandboxCoverageChange, SandboxCoverageState } from '../src/contract/index.js';

/** A patient as the service's requests name them. */
export interface NamedPatient {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
}

interface Coverage {
  lost: boolean;
  failing: boolean;
  payerId?: string;
  memberId?: string;
  memberIdChanges: number;
}

/**
 * Each patient's coverage as the sandbox answers it (issue 35), changed between checks by `POST /sandbox/coverage`:
 * lost or restored (a discovery finds none), moved to another payer, a new member id (a discovery finds them), or
 * verifications failing (a v2 creation answers 400 naming `patient`). Without a change, a patient's member id is the
 * same at every discovery, so only a scripted change is a change.
 */
export class CoverageControl {
  private readonly byPatient = new Map<string, Coverage>();

  apply(request: SandboxCoverageChange): SandboxCoverageState {
    const key = patientKey(request.patient);
    const c = this.byPatient.get(key) ?? { lost: false, failing: false, memberIdChanges: 0 };
    if (request.change === 'lose') c.lost = true;
    if (request.change === 'restore') c.lost = false;
    if (request.change === 'move-payer') c.payerId = request.payerId;
    if (request.change === 'new-member-id') {
      c.memberId = `W${randomInt(100_000_000, 1_000_000_000)}`;
      c.memberIdChanges++;
    }
    if (request.change === 'fail') c.failing = true;
    if (request.change === 'recover') c.failing = false;
    this.byPatient.set(key, c);
    return stateOf(c);
  }

  /** Whether the patient's verifications fail now. */
  failing(patient: NamedPatient): boolean {
    return this.byPatient.get(patientKey(patient))?.failing ?? false;
  }

  /** What a discovery of the patient finds: nothing when coverage is lost, else its payer and member id. */
  discover(
    patient: NamedPatient,
    payerId: string,
  ): { found: false } | { found: true; payerId: string; memberId: string } {
    const key = patientKey(patient);
    const c = this.byPatient.get(key);
    if (c?.lost) return { found: false };
    return { found: true, payerId: c?.payerId ?? payerId, memberId: c?.memberId ?? stableMemberId(key) };
  }

  clear(): void {
    this.byPatient.clear();
  }
}

const stateOf = (c: Coverage): SandboxCoverageState => ({
  covered: !c.lost,
  failing: c.failing,
  ...(c.payerId ? { payerId: c.payerId } : {}),
  memberIdChanges: c.memberIdChanges,
});

const patientKey = (p: NamedPatient) =>
  [p.firstName.trim().toLowerCase(), p.lastName.trim().toLowerCase(), p.dateOfBirth].join('\u0000');

/** `W` and nine digits derived from the patient: the same at every discovery until a change gives a new one. */
function stableMemberId(key: string): string {
  const n = createHash('sha256').update(key).digest().readUInt32BE(0) % 900_000_000;
  return `W${100_000_000 + n}`;
}
