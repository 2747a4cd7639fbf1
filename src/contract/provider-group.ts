import { z } from 'zod';
import { Uuid } from './common.js';

/** Whether each field is required is not shown in the spec; all three are, since a group without them is useless. */
export const ProviderGroupRequest = z.object({
  name: z.string().min(1).max(255),
  tin: z.string().regex(/^\d{9}$/, 'expected exactly 9 digits'),
  tinType: z.enum(['EIN', 'SSN']),
});
export type ProviderGroupRequest = z.infer<typeof ProviderGroupRequest>;

export const ProviderGroupResponse = z.object({ providerGroupId: Uuid });
export type ProviderGroupResponse = z.infer<typeof ProviderGroupResponse>;
