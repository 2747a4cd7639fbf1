import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers.js';

export interface VisibilityPage {
  infos: WorkflowExecutionInfo[];
  /** Absent on the last page. Opaque to callers (base64url of Temporal's token). */
  nextPageToken?: string;
}

/**
 * One page of a visibility list, with Temporal's page token handed to the caller (the SDK's `list()` iterates pages
 * itself and keeps the token), memos decoded with the client's converter as `list()` does.
 */
export async function visibilityPage(
  client: Client,
  query: string,
  pageSize: number,
  pageToken?: string,
): Promise<VisibilityPage> {
  const namespace = client.options.namespace;
  const response = await client.workflowService.listWorkflowExecutions({
    namespace,
    query,
    pageSize,
    nextPageToken: pageToken ? Buffer.from(pageToken, 'base64url') : Buffer.alloc(0),
  });
  const infos = await Promise.all(
    response.executions.map(
      async (raw) =>
        (await executionInfoFromRaw(raw, client.options.loadedDataConverter, raw, namespace)) as WorkflowExecutionInfo,
    ),
  );
  const token = response.nextPageToken;
  return { infos, ...(token && token.length > 0 ? { nextPageToken: Buffer.from(token).toString('base64url') } : {}) };
}
