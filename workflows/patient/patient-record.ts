import {
  allHandlersFinished,
  condition,
  makeContinueAsNewFunc,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { deadlineCallOptions } from '../shared/activity-options.js';
import { ON_CURRENT_VERSION, shouldContinueAsNew } from '../shared/continue-as-new.js';
import { EventEmitter } from '../shared/event-emitter.js';
import { DEFAULT_EVENT_TENANT } from '../shared/search-attributes.js';
import { patientVerificationWorkflowId } from '../shared/ids.js';
import {
  cancelAppointmentUpdate,
  markChangesSeenUpdate,
  patientQuery,
  refreshCoverageSignal,
  rescheduleAppointmentUpdate,
  scheduleAppointmentUpdate,
} from './patient.js';
import {
  DEFAULT_CHECK_POLICY,
  type CancelAppointment,
  type CheckPolicy,
  type CoverageEntry,
  type PatientWorkflowInput,
  type RefreshCoverage,
  type RescheduleAppointment,
  type ScheduleAppointment,
} from './patient.js';
import { lanePriority } from '../shared/priority.js';
import { CoverageChanges, RefreshId, VisitMonths } from '../shared/search-attributes.js';
import type { PatientActivities } from './activities.js';
import { reusableEntry, type DueCheck } from './check-plan.js';
import { FrontDeskCopy } from './front-desk-copy.js';
import { PatientBook } from './patient-book.js';
import { verifyPatient } from './verify.js';

/**
 * A patient's record: its book (details, appointments, timeline), its handlers, and what each step leaves behind:
 * search attributes upserted only when they change (the refresh and the Changes list find patients by them) and a
 * `coverage.changed` event for a changed outcome. The workflow function is the loop of its business steps.
 */
export class Patient {
  readonly policy: CheckPolicy;
  readonly book: PatientBook;
  private readonly events: EventEmitter;
  private readonly copy: FrontDeskCopy;
  private readonly discoverCoverage: PatientActivities['discoverCoverage'];

  constructor(private readonly input: PatientWorkflowInput) {
    this.policy = { ...DEFAULT_CHECK_POLICY, ...input.policy };
    const book = (this.book = new PatientBook(input.carried, this.policy));
    this.events = new EventEmitter(input.tenant);
    this.copy = new FrontDeskCopy(book, input);
    // A patient carried from a version that wrote no copies: the front desk's day learns of it now.
    if (input.carried && input.carried.copies === undefined) this.copy.changed();
    ({ discoverCoverage: this.discoverCoverage } = proxyActivities<PatientActivities>({
      ...deadlineCallOptions,
      priority: lanePriority('bulk', input.tenant === DEFAULT_EVENT_TENANT ? undefined : input.tenant),
    }));

    setHandler(patientQuery, () => ({ patientId: input.patientId, tenant: input.tenant, ...book.state }));
    setHandler(scheduleAppointmentUpdate, (message) => this.copied(book.schedule(message)), {
      validator: (message: ScheduleAppointment) => book.validateSchedule(message),
    });
    setHandler(rescheduleAppointmentUpdate, (message) => this.copied(book.reschedule(message)), {
      validator: (message: RescheduleAppointment) => book.validateChange(message, true),
    });
    setHandler(cancelAppointmentUpdate, (message) => this.copied(book.cancel(message)), {
      validator: (message: CancelAppointment) => book.validateChange(message, false),
    });
    setHandler(markChangesSeenUpdate, ({ changeIds }) => {
      const seen = book.markSeen(changeIds, Date.now());
      if (seen > 0) {
        this.indexChanges();
        this.copied();
      }
      return { seen };
    });
    // A refresh's repeated message, or its retried page, is refused here: at most one verification per refresh.
    setHandler(refreshCoverageSignal, (message) => {
      if (!book.askRefresh(message)) return;
      // Indexed at once, so the refresh stops asking for this patient (it asks for those without its id).
      upsertSearchAttributes([{ key: RefreshId, value: message.refreshId }]);
    });
  }

  /** A due check: reuses a recent answer, skips when nothing can be asked, else verifies and records the answer. */
  async check(due: DueCheck): Promise<void> {
    const { book, input } = this;
    const reused = reusableEntry(book.state.timeline, Date.now(), due.check.reuseWithinSeconds);
    if (reused) {
      due.check.state = 'reused';
      due.check.verificationWorkflowId = reused.workflowId;
      return this.copied();
    }
    const patient = book.state.patient;
    const payerId = due.appointment.payerId ?? book.knownPayer();
    // Never left waiting: the loop would find it due again at once.
    if (patient === undefined || payerId === undefined) {
      due.check.state = 'skipped';
      return this.copied();
    }
    const n = book.state.checksStarted++;
    // Marked before the verification runs, so a reschedule or cancel meanwhile keeps it (they drop waiting checks only).
    due.check.state = 'verified';
    due.check.verificationWorkflowId = patientVerificationWorkflowId(input.patientId, n);
    this.copied();
    const visit = due.appointment;
    this.record(
      await verifyPatient({ ...this.verifying(n), patient, visit, payerId, appointmentId: visit.appointmentId }),
    );
  }

  /** One verification for a monthly refresh, compared like any check. Without a payer, nothing to ask. */
  async refreshCoverage(refresh: RefreshCoverage): Promise<void> {
    const { patient, lastVisit: visit, checksStarted: n } = this.book.state;
    const payerId = this.book.refreshPayer();
    if (patient === undefined || payerId === undefined || visit === undefined) return;
    // A discovery tells payer, member id and lost coverage (decision 51); unreachable or not configured, the refresh
    // verifies with the held payer, as a visit's check does.
    const discoveryId = await this.discoverCoverage(patient, payerId).catch(() => undefined);
    this.record(
      await verifyPatient({
        ...this.verifying(n),
        patient,
        visit,
        payerId,
        refresh,
        ...(discoveryId ? { discoveryId } : {}),
      }),
    );
  }

  /** The months of its visits, upserted only when they change: the refresh finds active patients by them. */
  indexVisits(): void {
    const months = this.book.visitMonths();
    const held = workflowInfo().typedSearchAttributes.get(VisitMonths) ?? [];
    if (months.length === held.length && months.every((m, i) => m === held[i])) return;
    upsertSearchAttributes([{ key: VisitMonths, value: months }]);
  }

  /** Continues as new with the book once the history is long or a new version is current. */
  async moveOnIfTime(): Promise<void> {
    if (!shouldContinueAsNew(this.policy.continueAfterEvents)) return;
    await condition(allHandlersFinished);
    await Promise.all([this.events.kept(), this.copy.written()]);
    await makeContinueAsNewFunc<(input: PatientWorkflowInput) => Promise<never>>(ON_CURRENT_VERSION)({
      ...this.input,
      carried: this.book.state,
    });
  }

  private verifying(n: number) {
    const { patientId, tenant, verificationTiming } = this.input;
    const { index } = this.book.state;
    return {
      patientId,
      tenant,
      n,
      ...(verificationTiming ? { timing: verificationTiming } : {}),
      ...(index ? { index } : {}),
    };
  }

  /** Something the front desk reads changed: its copy is written again (in the background). */
  private copied<T = void>(result?: T): T {
    this.copy.changed();
    return result as T;
  }

  /** An answer on the timeline; a changed outcome is a change on the Changes list and a `coverage.changed` event. */
  private record(entry: CoverageEntry): void {
    const { patientId } = this.input;
    const change = this.book.record(
      entry,
      `chg_${patientId.slice('pt_'.length)}_${uuid4().replaceAll('-', '').slice(0, 16)}`,
    );
    this.copied();
    if (!change) return;
    this.indexChanges();
    this.events.emit('coverage.changed', { patientId, ...change }, `/patients/${patientId}`);
  }

  /** The Changes list finds patients by it: `unseen` while one waits there. Upserted only when it flips. */
  private indexChanges(): void {
    const state = this.book.unseen > 0 ? 'unseen' : 'seen';
    if (workflowInfo().typedSearchAttributes.get(CoverageChanges) !== state) {
      upsertSearchAttributes([{ key: CoverageChanges, value: state }]);
    }
  }
}
