import type { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { WorkflowTypeName } from '../../workflows/shared/workflow-types.js';

/**
 * Visibility queries, built from the search-attribute keys and the workflow-type constants: the one place a query is
 * spelled, so a renamed attribute or workflow cannot leave a query that silently finds nothing. Every value is quoted
 * and escaped, so none can end its string early.
 */
export type Condition = string & { readonly __condition: true };

type KeywordKey = ReturnType<typeof defineSearchAttributeKey<typeof SearchAttributeType.KEYWORD>>;
type KeywordListKey = ReturnType<typeof defineSearchAttributeKey<typeof SearchAttributeType.KEYWORD_LIST>>;
/** Temporal's `ExecutionStatus` values as visibility spells them. */
export type ExecutionStatus = 'Running' | 'Completed' | 'Failed' | 'Canceled' | 'Terminated' | 'TimedOut';

const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const condition = (text: string) => text as Condition;
const list = (values: readonly string[]) => `(${values.map(quote).join(', ')})`;

export const is = (key: KeywordKey, value: string): Condition => condition(`${key.name} = ${quote(value)}`);
/** Unset, or set to another value (visibility's `!=` alone skips workflows without the attribute). */
export const isUnsetOrNot = (key: KeywordKey, value: string): Condition =>
  condition(`(${key.name} IS NULL OR ${key.name} != ${quote(value)})`);
/** Unset, or set to none of `values` (a workflow without the attribute is in no `NOT IN`); never an empty list. */
export const isUnsetOrNoneOf = (key: KeywordKey, values: readonly string[]): Condition =>
  condition(`(${key.name} IS NULL OR ${key.name} NOT IN ${list(values)})`);
export const isUnset = (key: KeywordKey): Condition => condition(`${key.name} IS NULL`);
export const isOneOf = (key: KeywordKey, values: readonly string[]): Condition =>
  condition(`${key.name} IN ${list(values)}`);
/** A keyword list holding any of `values` (visibility's `IN` on a list matches any element); never an empty list. */
export const hasAnyOf = (key: KeywordListKey, values: readonly string[]): Condition =>
  condition(`${key.name} IN ${list(values)}`);
/**
 * A tenant filter: one tenant, or any of several (a person of several tenants). An empty list matches nothing, and
 * `IN ()` is no query: callers answer an empty list themselves, without asking visibility.
 */
export type TenantFilter = string | readonly string[];
export const isTenant = (key: KeywordKey, tenant: TenantFilter): Condition =>
  typeof tenant === 'string' ? is(key, tenant) : isOneOf(key, tenant);
export const noTenant = (tenant: TenantFilter | undefined): boolean => Array.isArray(tenant) && tenant.length === 0;
export const ofType = (type: WorkflowTypeName): Condition => condition(`WorkflowType = ${quote(type)}`);
export const withStatus = (status: ExecutionStatus): Condition => condition(`ExecutionStatus = ${quote(status)}`);
export const withoutStatus = (status: ExecutionStatus): Condition => condition(`ExecutionStatus != ${quote(status)}`);
export const withStatusIn = (statuses: readonly ExecutionStatus[]): Condition =>
  condition(`ExecutionStatus IN ${list(statuses)}`);
export const withWorkflowId = (workflowId: string): Condition => condition(`WorkflowId = ${quote(workflowId)}`);
export const withWorkflowIdIn = (workflowIds: readonly string[]): Condition =>
  condition(`WorkflowId IN ${list(workflowIds)}`);

/** Workflows whose versioning pins them to one version of a Worker Deployment (Temporal's own search attribute). */
export const pinnedTo = (deploymentName: string, buildId: string): Condition =>
  condition(`TemporalWorkerDeploymentVersion = ${quote(`${deploymentName}:${buildId}`)}`);

/** Workflows an unversioned worker has run (Temporal records it in `BuildIds`) and no versioned worker has taken since. */
export const ranUnversioned = condition("BuildIds = 'unversioned' AND TemporalWorkerDeploymentVersion IS NULL");
export const onTaskQueue = (taskQueue: string): Condition => condition(`TaskQueue = ${quote(taskQueue)}`);

export const and = (...conditions: Condition[]): Condition => condition(conditions.join(' AND '));
/** Parenthesised, and so is each operand that is itself a conjunction. */
export const or = (...conditions: Condition[]): Condition =>
  condition(`(${conditions.map((c) => (c.includes(' AND ') ? `(${c})` : c)).join(' OR ')})`);
