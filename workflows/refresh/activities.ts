import type { AskPatientsInput, RefreshCounts } from './refresh.js';

/**
 * What a refresh asks of Temporal itself (never of the service), run as local activities like a batch's. The workflow
 * owns this port; `activities/refresh/` implements it.
 */
export interface RefreshActivities {
  /** Lists one page of the tenant's active patients that have not taken the refresh and signals each; answers how
   * many it signalled (0: none left, as visibility sees it). */
  askActivePatients: (input: AskPatientsInput) => Promise<number>;
  countRefresh: (input: { tenant: string; refreshId: string }) => Promise<RefreshCounts>;
}
