import { z } from 'zod';

/**
 * A tenant (a provider group or clinic id; never PHI): the fairness key of its verifications' priority
 * (docs/developing/traffic.md) and a `Tenant` search attribute, so it is validated like the ids that reach visibility
 * queries.
 */
export const TenantSchema = z
  .string()
  .regex(/^[A-Za-z0-9._:@-]{1,64}$/, 'expected 1 to 64 letters, digits or . _ : @ -')
  .describe('The submitter’s tenant (provider group or clinic id, never patient data)');
