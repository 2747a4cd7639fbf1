// The front desk's day (docs/developing/patient-data.md): patient copies kept and read, and where a visit's coverage stands.
export { Visits, FIND_LIMIT } from './visits.js';
export { DAY_PAGE_SIZE, DAYS_AHEAD, type DayOfVisits, type DayQuery, type Visit } from './day.js';
export { VISIT_COVERAGES, checkWorkflowId, isVisitCoverage, visitCoverage, type VisitCoverage } from './coverage.js';
export { awaitingInput } from './awaiting-input.js';
