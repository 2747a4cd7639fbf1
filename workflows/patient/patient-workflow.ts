import {
  allHandlersFinished,
  upsertSearchAttributes,
  condition,
  makeContinueAsNewFunc,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { deadlineCallOptions } from '../shared/activity-options.js';
import { EventEmitter } from '../shared/event-emitter.js';
import { lanePriority } from '../shared/priority.js';
import { patientVerificationWorkflowId } from '../shared/ids.js';
import {
  cancelAppointmentUpdate,
  markChangesSeenUpdate,
  patientQuery,
  refreshCoverageSignal,
  rescheduleAppointmentUpdate,
  scheduleAppointmentUpdate,
} from '../shared/patient-messages.js';
import {
  DEFAULT_CHECK_POLICY,
  type CancelAppointment,
  type CoverageChange,
  type CoverageEntry,
  type PatientWorkflowInput,
  type RefreshCoverage,
  type RescheduleAppointment,
  type ScheduleAppointment,
} from '../shared/patient-types.js';
import { DEFAULT_EVENT_TENANT } from '../shared/event-types.js';
import { CoverageChanges, RefreshId, VisitMonths } from '../shared/search-attributes.js';
import { newVersionIsCurrent, ON_CURRENT_VERSION } from '../shared/versioning.js';
import { nextCheck, reusableEntry, type DueCheck } from './check-plan.js';
import type { PatientActivities } from './activities.js';
import { PatientBook } from './patient-book.js';
import { verifyPatient } from './verify.js';

/**
 * One patient of one tenant (docs/integrating/patients.md): holds its details, appointments and coverage timeline,
 * verifies ahead of each visit on durable timers, and reports a changed outcome as `coverage.changed`. Runs for as long
 * as the patient exists, continuing as new with its state when its history grows or a new version is current.
 */
export async function patientWorkflow(input: PatientWorkflowInput): Promise<never> {
  const policy = { ...DEFAULT_CHECK_POLICY, ...input.policy };
  const book = new PatientBook(input.carried, policy);
  const events = new EventEmitter(input.tenant);
  const { discoverCoverage } = proxyActivities<PatientActivities>({
    ...deadlineCallOptions,
    priority: lanePriority('bulk', input.tenant === DEFAULT_EVENT_TENANT ? undefined : input.tenant),
  });

  setHandler(patientQuery, () => ({ patientId: input.patientId, tenant: input.tenant, ...book.state }));
  setHandler(scheduleAppointmentUpdate, (message) => book.schedule(message), {
    validator: (message: ScheduleAppointment) => book.validateSchedule(message),
  });
  setHandler(rescheduleAppointmentUpdate, (message) => book.reschedule(message), {
    validator: (message: RescheduleAppointment) => book.validateChange(message, true),
  });
  setHandler(cancelAppointmentUpdate, (message) => book.cancel(message), {
    validator: (message: CancelAppointment) => book.validateChange(message, false),
  });

  setHandler(markChangesSeenUpdate, ({ changeIds }) => {
    const seen = book.markSeen(changeIds, Date.now());
    if (seen > 0) indexChanges();
    return { seen };
  });

  // A refresh's repeated message, or its retried page, is refused here: at most one verification per refresh.
  setHandler(refreshCoverageSignal, (message) => {
    if (!book.askRefresh(message)) return;
    // Indexed at once, so the refresh stops asking for this patient (it asks for those without its id).
    upsertSearchAttributes([{ key: RefreshId, value: message.refreshId }]);
  });

  for (;;) {
    book.prune(Date.now());
    indexVisits();
    const refresh = book.takeRefresh();
    if (refresh) {
      await refreshCoverage(refresh);
      await moveOnIfTime();
      continue;
    }
    const due = nextCheck(book.state.appointments);
    const seen = book.revision;
    // Sleeps until the next check (a durable timer), or until a message moves the plan: a new, moved or cancelled
    // appointment. Without appointments the patient waits on messages alone and holds no timer.
    const moved =
      due === undefined
        ? await condition(() => book.revision !== seen)
        : await condition(() => book.revision !== seen, Math.max(1, due.check.at - Date.now()));
    if (!moved && due !== undefined) await check(due);
    await moveOnIfTime();
  }

  async function moveOnIfTime(): Promise<void> {
    if (!timeToMoveOn(policy.continueAfterEvents)) return;
    await condition(allHandlersFinished);
    await events.kept();
    await makeContinueAsNewFunc<typeof patientWorkflow>(ON_CURRENT_VERSION)({ ...input, carried: book.state });
  }

  /** One verification for a monthly refresh, compared like any check (issue 35). Without a payer, nothing to ask. */
  async function refreshCoverage(refresh: RefreshCoverage): Promise<void> {
    const patient = book.state.patient;
    const payerId = book.refreshPayer();
    const visit = book.state.lastVisit;
    if (patient === undefined || payerId === undefined || visit === undefined) return;
    // A discovery tells payer, member id and lost coverage (decision 0051); unreachable or not configured, the
    // refresh verifies with the held payer, as a visit's check does.
    const discoveryId = await discoverCoverage(patient, payerId).catch(() => undefined);
    const entry = await verifyPatient({
      patientId: input.patientId,
      tenant: input.tenant,
      n: book.state.checksStarted,
      patient,
      visit,
      payerId,
      refresh,
      ...(discoveryId ? { discoveryId } : {}),
      ...(input.verificationTiming ? { timing: input.verificationTiming } : {}),
    });
    recordEntry(entry);
  }

  /** The months of its visits, upserted only when they change: the refresh finds active patients by them. */
  function indexVisits(): void {
    const months = book.visitMonths();
    const held = workflowInfo().typedSearchAttributes.get(VisitMonths) ?? [];
    if (months.length === held.length && months.every((m, i) => m === held[i])) return;
    upsertSearchAttributes([{ key: VisitMonths, value: months }]);
  }

  async function check(due: DueCheck): Promise<void> {
    const reused = reusableEntry(book.state.timeline, Date.now(), due.check.reuseWithinSeconds);
    if (reused) {
      due.check.state = 'reused';
      due.check.verificationWorkflowId = reused.workflowId;
      return;
    }
    const patient = book.state.patient;
    const payerId = due.appointment.payerId ?? book.knownPayer();
    // Never left waiting: the loop would find it due again at once.
    if (patient === undefined || payerId === undefined) {
      due.check.state = 'skipped';
      return;
    }
    const n = book.state.checksStarted++;
    // Marked before the verification runs, so a reschedule or cancel meanwhile keeps it (they drop waiting checks only).
    due.check.state = 'verified';
    due.check.verificationWorkflowId = patientVerificationWorkflowId(input.patientId, n);
    const entry = await verifyPatient({
      patientId: input.patientId,
      tenant: input.tenant,
      n,
      patient,
      visit: due.appointment,
      payerId,
      appointmentId: due.appointment.appointmentId,
      ...(input.verificationTiming ? { timing: input.verificationTiming } : {}),
    });
    recordEntry(entry);
  }

  function recordEntry(entry: CoverageEntry): void {
    const change = book.record(
      entry,
      `chg_${input.patientId.slice('pt_'.length)}_${uuid4().replaceAll('-', '').slice(0, 16)}`,
    );
    if (change) {
      indexChanges();
      emitChange(change);
    }
  }

  /** The Changes list finds patients by it: `unseen` while one waits there. Upserted only when it flips. */
  function indexChanges(): void {
    const state = book.unseen > 0 ? 'unseen' : 'seen';
    if (workflowInfo().typedSearchAttributes.get(CoverageChanges) !== state) {
      upsertSearchAttributes([{ key: CoverageChanges, value: state }]);
    }
  }

  function emitChange(change: CoverageChange): void {
    events.emit('coverage.changed', { patientId: input.patientId, ...change }, `/patients/${input.patientId}`);
  }
}

/** Continue as new once the history is long, the server suggests it, or a new version is current. */
function timeToMoveOn(continueAfterEvents: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength >= continueAfterEvents || newVersionIsCurrent();
}
