import type { ConnectionLike } from '@temporalio/client';
import type { SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes.js';
import proto from '@temporalio/proto';
import { msToTs } from '@temporalio/common/lib/time.js';
import { searchAttributeKeys } from '../../workflows/shared/search-attributes.js';
import { grpcCode } from './errors.js';

const { IndexedValueType } = proto.temporal.api.enums.v1;
const GRPC_NOT_FOUND = 5;
const GRPC_ALREADY_EXISTS = 6;

/** What `setUpNamespace` found and did; `conflicts` are attributes registered with another type (it cannot fix them). */
export interface NamespaceSetupReport {
  namespace: string;
  createdNamespace: boolean;
  added: string[];
  present: string[];
  conflicts: { name: string; registered: string; wanted: SearchAttributeType }[];
}

export class NamespaceSetupError extends Error {
  override name = 'NamespaceSetupError';
}

export interface NamespaceSetupOptions {
  /** The search attributes to register: by default every key of `workflows/shared/search-attributes.ts`. */
  keys?: readonly SearchAttributeKey<SearchAttributeType>[];
  /** Retention of a namespace it creates (default 7 days). */
  retentionDays?: number;
  /** How long a fresh server's caches may take to know what was just created (default 90 s). */
  timeoutMs?: number;
}

const typeName = (value: number | null | undefined) =>
  (IndexedValueType[value ?? 0] ?? 'unknown').replace('INDEXED_VALUE_TYPE_', '');

/**
 * Makes a namespace ready for this project, idempotently: creates it when it does not exist, registers every search
 * attribute the workflows and clients use (their one home is `workflows/shared/search-attributes.ts`, so attributes
 * added there are included), then waits until visibility answers a query on all of them. A second run changes nothing
 * and reports everything present. The dev server, the tests, the benchmarks' servers and `eligibility setup` all run
 * this. What the server's API cannot set (dynamic config) is the caller's to print.
 */
export async function setUpNamespace(
  connection: Pick<ConnectionLike, 'workflowService' | 'operatorService'>,
  namespace: string,
  options: NamespaceSetupOptions = {},
): Promise<NamespaceSetupReport> {
  const keys = options.keys ?? searchAttributeKeys;
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  // A fresh cluster's frontend learns a new namespace or attribute from its caches a few seconds later.
  const retry = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await call();
      } catch (err) {
        if (Date.now() > deadline) throw new NamespaceSetupError(`${what}: ${(err as Error).message}`, { cause: err });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  const { workflowService, operatorService } = connection;
  let createdNamespace = false;
  try {
    await workflowService.describeNamespace({ namespace });
  } catch (err) {
    if (grpcCode(err) !== GRPC_NOT_FOUND) throw err;
    try {
      await workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: msToTs(`${options.retentionDays ?? 7} days`),
      });
      createdNamespace = true;
    } catch (registerErr) {
      if (grpcCode(registerErr) !== GRPC_ALREADY_EXISTS) throw registerErr;
    }
    await retry(`namespace ${namespace} was created but is not served yet`, () =>
      workflowService.describeNamespace({ namespace }),
    );
  }

  const registered = async () =>
    (await retry('listing the search attributes', () => operatorService.listSearchAttributes({ namespace })))
      .customAttributes ?? {};
  const existing = await registered();
  const wanted = (key: SearchAttributeKey<SearchAttributeType>) =>
    IndexedValueType[`INDEXED_VALUE_TYPE_${key.type}` as keyof typeof IndexedValueType] as number;
  const missing = keys.filter((key) => !(key.name in existing));
  const conflicts = keys
    .filter((key) => key.name in existing && Number(existing[key.name]) !== wanted(key))
    .map((key) => ({ name: key.name, registered: typeName(existing[key.name]), wanted: key.type }));
  if (missing.length > 0) {
    const searchAttributes = Object.fromEntries(missing.map((key) => [key.name, wanted(key)]));
    await retry('adding the search attributes', async () => {
      const now = await registered();
      if (missing.every((key) => key.name in now)) return;
      await operatorService.addSearchAttributes({ namespace, searchAttributes });
    });
  }
  const query = keys
    .filter((key) => ['KEYWORD', 'KEYWORD_LIST', 'TEXT'].includes(key.type))
    .map((key) => `${key.name} = "probe"`)
    .join(' AND ');
  await retry('a visibility query on every search attribute', () =>
    workflowService.countWorkflowExecutions({ namespace, query }),
  );
  return {
    namespace,
    createdNamespace,
    added: missing.map((key) => key.name),
    present: keys.filter((key) => !missing.includes(key)).map((key) => key.name),
    conflicts,
  };
}
