import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers.js';
import type { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { pageToken as tokenOf, readPageToken } from '../pages.js';
import type { VisibilityPage } from '../temporal/visibility-page.js';

/** The most batch workflows one listing reads: far more than a namespace's retention holds in practice. */
export const MAX_LISTED_BATCHES = 20_000;
const SCAN_PAGE = 1000;

type RawExecution = temporal.api.workflow.v1.IWorkflowExecutionInfo;

/** Start time of the last batch shown, in ms, and its workflow id (ties). */
const Cursor = z.object({ t: z.number(), w: z.string() });

const startMs = (raw: RawExecution) =>
  Number(raw.startTime?.seconds ?? 0) * 1000 + Math.floor((raw.startTime?.nanos ?? 0) / 1e6);
const idOf = (raw: RawExecution) => raw.execution?.workflowId ?? '';
const newerFirst = (a: RawExecution, b: RawExecution) => startMs(b) - startMs(a) || idOf(b).localeCompare(idOf(a));

/**
 * A page of the workflows a visibility query finds, newest start first whatever happened to them since. Visibility's
 * own order puts running workflows first and closed ones by when they closed, so a batch cancelled today would list
 * above a newer one that finished yesterday; SQL visibility takes no ORDER BY. Batches are few (one per file), so
 * every match is read without decoding (start times and ids only), sorted, and only the page shown is decoded. The
 * page token is a cursor (the last start time and id shown), so pages stay in order while batches close meanwhile.
 */
export async function newestFirstPage(
  client: Client,
  query: string,
  pageSize: number,
  pageToken?: string,
): Promise<VisibilityPage> {
  const cursor = pageToken ? readPageToken('batches', pageToken, Cursor) : undefined;
  const namespace = client.options.namespace;
  const all: RawExecution[] = [];
  let token: Uint8Array | undefined;
  do {
    const response = await client.workflowService.listWorkflowExecutions({
      namespace,
      query,
      pageSize: SCAN_PAGE,
      nextPageToken: token ?? Buffer.alloc(0),
    });
    all.push(...response.executions);
    token = response.nextPageToken?.length ? response.nextPageToken : undefined;
  } while (token && all.length < MAX_LISTED_BATCHES);
  const after = cursor
    ? all.filter((raw) => startMs(raw) < cursor.t || (startMs(raw) === cursor.t && idOf(raw) < cursor.w))
    : all;
  const page = after.sort(newerFirst).slice(0, pageSize);
  const infos = await Promise.all(
    page.map(
      async (raw) =>
        (await executionInfoFromRaw(raw, client.options.loadedDataConverter, raw, namespace)) as WorkflowExecutionInfo,
    ),
  );
  const last = page.at(-1);
  const more = last !== undefined && after.length > page.length;
  return {
    infos,
    ...(more ? { nextPageToken: tokenOf('batches', { t: startMs(last), w: idOf(last) }) } : {}),
  };
}
