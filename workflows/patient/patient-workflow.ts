import { condition } from '@temporalio/workflow';
import type { PatientWorkflowInput } from './patient.js';
import { nextCheck } from './check-plan.js';
import { Patient } from './patient-record.js';

/**
 * One patient of one tenant (docs/integrating/patients.md): holds its details, appointments and coverage timeline,
 * verifies ahead of each visit on durable timers, and reports a changed outcome as `coverage.changed`. Runs for as long
 * as the patient exists, continuing as new with its state when its history grows or a new version is current.
 */
export async function patientWorkflow(input: PatientWorkflowInput): Promise<never> {
  const patient = new Patient(input);
  const { book } = patient;
  for (;;) {
    book.prune(Date.now());
    patient.indexVisits();
    const refresh = book.takeRefresh();
    if (refresh) {
      await patient.refreshCoverage(refresh);
    } else {
      const due = nextCheck(book.state.appointments);
      const seen = book.revision;
      // Sleeps until the next check (a durable timer), or until a message moves the plan: a new, moved or cancelled
      // appointment. Without appointments the patient waits on messages alone and holds no timer.
      const moved =
        due === undefined
          ? await condition(() => book.revision !== seen)
          : await condition(() => book.revision !== seen, Math.max(1, due.check.at - Date.now()));
      if (!moved && due !== undefined) await patient.check(due);
    }
    await patient.moveOnIfTime();
  }
}
