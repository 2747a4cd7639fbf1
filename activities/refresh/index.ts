import type { Client } from '@temporalio/client';
import { countBatchItems } from '../batch/count.js';
import { refreshCoverageSignal } from '../../workflows/patient/patient.js';
import type { AskPatientsInput, RefreshCounts } from '../../workflows/refresh/refresh.js';
import type { RefreshActivities } from '../../workflows/refresh/index.js';
import { activePatientsQuery, refreshedPatientsQuery } from '../../src/patients/refresh-queries.js';

const PATIENT_ID = /^patient-(pt_[0-9a-f]{32})$/;

/**
 * The refresh's activities (decision 0050): visibility lists and counts, and one signal per patient. Idempotent: a
 * retry signals the same patients again, and they refuse a refresh they took.
 */
export function createRefreshActivities(deps: { client: Client }): RefreshActivities {
  const { client } = deps;
  return {
    askActivePatients: async (input: AskPatientsInput): Promise<number> => {
      const query = activePatientsQuery(input.tenant, input.taskQueue, input.months, input.refreshId);
      let asked = 0;
      const signals: Promise<void>[] = [];
      for await (const workflow of client.workflow.list({ query, pageSize: input.pageSize })) {
        if (asked >= input.pageSize) break;
        if (!PATIENT_ID.test(workflow.workflowId)) continue;
        asked++;
        signals.push(
          client.workflow
            .getHandle(workflow.workflowId)
            .signal(refreshCoverageSignal, { refreshId: input.refreshId, batchId: input.refreshId }),
        );
      }
      await Promise.all(signals);
      return asked;
    },
    countRefresh: async ({ tenant, refreshId }): Promise<RefreshCounts> => {
      const [patients, verifications] = await Promise.all([
        client.workflow.count(refreshedPatientsQuery(tenant, refreshId)),
        countBatchItems(client, refreshId),
      ]);
      return { patients: patients.count, verifications };
    },
  };
}
