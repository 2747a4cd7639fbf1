import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Registered on the dev server at start (apps/dev/temporal-dev-server.ts). None of them may ever carry PHI.
export const VerificationStage = defineSearchAttributeKey('VerificationStage', SearchAttributeType.KEYWORD);
export const PayerId = defineSearchAttributeKey('PayerId', SearchAttributeType.KEYWORD);
export const SpecialtyCode = defineSearchAttributeKey('SpecialtyCode', SearchAttributeType.KEYWORD);
export const VerificationId = defineSearchAttributeKey('VerificationId', SearchAttributeType.KEYWORD);
export const DiscoveryId = defineSearchAttributeKey('DiscoveryId', SearchAttributeType.KEYWORD);
/**
 * On a batch, its pages and every item's verification: `BatchId = "<id>"` finds the whole batch
 * (docs/integrating/batches.md).
 */
export const BatchId = defineSearchAttributeKey('BatchId', SearchAttributeType.KEYWORD);
/** The submitter's tenant (a provider group or clinic id, never PHI), for traffic governance's fairness key. */
export const Tenant = defineSearchAttributeKey('Tenant', SearchAttributeType.KEYWORD);

/**
 * The patient search index (docs/developing/patient-data.md): keyed hashes of last name + date of birth and of member
 * id, each keyed by tenant (src/blind-index). Never a patient value: without the index's key a hash tells nothing.
 */
export const PatientIndex = defineSearchAttributeKey('PatientIndex', SearchAttributeType.KEYWORD_LIST);
/** On a patient: `unseen` while a coverage change of it waits on the Changes list, `seen` after (issue 35). */
export const CoverageChanges = defineSearchAttributeKey('CoverageChanges', SearchAttributeType.KEYWORD);

/**
 * On a patient: the months (`YYYY-MM`, the visit's own calendar) of its scheduled appointments, upcoming and past
 * (issue 35): the monthly refresh finds active patients with `VisitMonths IN (...)`. A month is no patient value.
 */
export const VisitMonths = defineSearchAttributeKey('VisitMonths', SearchAttributeType.KEYWORD_LIST);
/** On a patient: the latest refresh (its workflow id) it took; the refresh asks for those without its own. */
export const RefreshId = defineSearchAttributeKey('RefreshId', SearchAttributeType.KEYWORD);

export const searchAttributeKeys = [
  VerificationStage,
  PayerId,
  SpecialtyCode,
  VerificationId,
  DiscoveryId,
  BatchId,
  Tenant,
  PatientIndex,
  CoverageChanges,
  VisitMonths,
  RefreshId,
] as const;

/** Each key's type as the Temporal CLI's `--search-attribute Name=Type` spells it. */
export const cliTypeName = {
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
};

/** The tenant of work started without one (an all-tenant client): its `Tenant` attribute is left unset. */
export const DEFAULT_EVENT_TENANT = 'default';
