import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers.js';
import { z } from 'zod';
import { InvalidPageToken, pageToken, readPageToken, type PagedList, type PageRequest } from '../pages.js';
import { GrpcStatus, grpcCode, missingSearchAttribute } from './errors.js';

export interface VisibilityPage {
  infos: WorkflowExecutionInfo[];
  /** Absent on the last page; opaque to callers (src/pages.ts). */
  nextPageToken?: string;
}

/** Temporal's own page token, as base64url inside ours: its sort position (times and a run id), no query text. */
const TemporalToken = z.string().regex(/^[A-Za-z0-9_-]+$/);

/**
 * One page of a visibility list, with Temporal's page token handed to the caller inside a token of `list` (the SDK's
 * `list()` iterates pages itself and keeps the token), memos decoded with the client's converter as `list()` does.
 * Temporal may answer a token after a full last page: the page it leads to is empty and has none.
 */
export async function visibilityPage(
  client: Client,
  query: string,
  list: PagedList,
  page: PageRequest,
): Promise<VisibilityPage> {
  const namespace = client.options.namespace;
  const token = page.pageToken ? Buffer.from(readPageToken(list, page.pageToken, TemporalToken), 'base64url') : null;
  const response = await client.workflowService
    .listWorkflowExecutions({ namespace, query, pageSize: page.limit, nextPageToken: token ?? Buffer.alloc(0) })
    .catch((err: unknown) => {
      // Temporal refuses a token it cannot read as invalid: the caller's token, unless it names the namespace's lack.
      const refused = grpcCode(err) === GrpcStatus.INVALID_ARGUMENT && !missingSearchAttribute(err);
      throw token && refused ? new InvalidPageToken(list) : err;
    });
  const infos = await Promise.all(
    response.executions.map(
      async (raw) =>
        (await executionInfoFromRaw(raw, client.options.loadedDataConverter, raw, namespace)) as WorkflowExecutionInfo,
    ),
  );
  const next = response.nextPageToken;
  return {
    infos,
    ...(next && next.length > 0 ? { nextPageToken: pageToken(list, Buffer.from(next).toString('base64url')) } : {}),
  };
}
