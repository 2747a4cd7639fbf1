import { DEFAULT_EVENT_TENANT } from '../../workflows/shared/search-attributes.js';
import { RefreshId, Tenant, VisitMonths } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import {
  and,
  hasAnyOf,
  is,
  isUnset,
  isUnsetOrNot,
  ofType,
  onTaskQueue,
  withStatus,
  type Condition,
} from '../temporal/visibility-query.js';

/*
 * How the monthly refresh finds patients in visibility (decision 0050): by tenant, visit months and the refresh they
 * took. Visibility lags a second or so behind the patients: the refresh pages until it sees none left, twice.
 */

/** A tenant's patients: patients of an install without tenants carry no `Tenant`. */
const ofTenant = (tenant: string): Condition =>
  tenant === DEFAULT_EVENT_TENANT ? isUnset(Tenant) : is(Tenant, tenant);

const patientsOf = (tenant: string) => and(ofType(WorkflowType.patient), withStatus('Running'), ofTenant(tenant));

/** Active patients (a visit in one of `months`) on the refresh's task queue that have not taken `refreshId`. */
export const activePatientsQuery = (
  tenant: string,
  taskQueue: string,
  months: readonly string[],
  refreshId: string,
): Condition =>
  and(patientsOf(tenant), onTaskQueue(taskQueue), hasAnyOf(VisitMonths, months), isUnsetOrNot(RefreshId, refreshId));

/** Patients that took `refreshId`. */
export const refreshedPatientsQuery = (tenant: string, refreshId: string): Condition =>
  and(patientsOf(tenant), is(RefreshId, refreshId));
