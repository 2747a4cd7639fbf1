import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Registered on the dev server at start (src/dev/temporal-dev-server.ts). None of them may ever carry PHI.
export const VerificationStage = defineSearchAttributeKey('VerificationStage', SearchAttributeType.KEYWORD);
export const PayerId = defineSearchAttributeKey('PayerId', SearchAttributeType.KEYWORD);
export const SpecialtyCode = defineSearchAttributeKey('SpecialtyCode', SearchAttributeType.KEYWORD);
export const VerificationId = defineSearchAttributeKey('VerificationId', SearchAttributeType.KEYWORD);
export const DiscoveryId = defineSearchAttributeKey('DiscoveryId', SearchAttributeType.KEYWORD);

export const searchAttributeKeys = [VerificationStage, PayerId, SpecialtyCode, VerificationId, DiscoveryId] as const;
