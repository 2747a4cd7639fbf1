import type { VerificationIntake } from '../../src/contract/index.js';

// What the workflow and its starter read of an intake request. Plain functions over the contract's type, kept here
// (not in src/contract, whose modules hold zod schemas) so the workflow bundle never pulls zod in.

/** The member id, wherever this version carries it. */
export function intakeMemberId(intake: VerificationIntake): string | undefined {
  return intake.version === 'v1' ? intake.memberId : intake.patient.memberId;
}

/** True when the payer or the member id is unknown and a discovery will tell: the workflow waits for it first. */
export function waitsForDiscovery(intake: VerificationIntake): boolean {
  return intake.discoveryId !== undefined && (intake.payerId === undefined || intakeMemberId(intake) === undefined);
}
