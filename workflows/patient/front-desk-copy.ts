import { condition, proxyLocalActivities } from '@temporalio/workflow';
import type { PatientCopyActivities } from './activities.js';
import type { PatientBook } from './patient-book.js';

const { keepPatientCopy } = proxyLocalActivities<PatientCopyActivities>({
  startToCloseTimeout: '10 seconds',
  // The database unreachable: tried again until it is back (the patient goes on meanwhile).
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  summary: 'copy the patient for the front desk',
});

/**
 * The patient's copy for the front desk's day (src/visits), written again after every change by one local activity at
 * a time: the changes made while a copy is written go into the next one, so a burst of messages costs two writes.
 */
export class FrontDeskCopy {
  private asked = 0;
  private kept = 0;
  private writing = false;

  constructor(
    private readonly book: PatientBook,
    private readonly patient: { patientId: string; tenant: string },
  ) {}

  changed(): void {
    this.asked++;
    if (!this.writing) void this.write();
  }

  /** Every change is in a written copy (before the patient continues as new). */
  async written(): Promise<void> {
    await condition(() => this.kept === this.asked);
  }

  private async write(): Promise<void> {
    this.writing = true;
    while (this.kept < this.asked) {
      const asked = this.asked;
      const { state } = this.book;
      // Numbered in the carried state, so a copy of a later run never loses to an earlier run's.
      state.copies = (state.copies ?? 0) + 1;
      const { patientId, tenant } = this.patient;
      try {
        await keepPatientCopy({ patientId, tenant, ...state, revision: state.copies });
      } catch {
        // Given up only when the workflow ends; the next change writes a whole copy again.
      }
      this.kept = asked;
    }
    this.writing = false;
  }
}
