import { z } from 'zod';
import { DateOfBirth, PersonName, StateCode } from './common.js';

export const DiscoveryStatus = z.enum(['pending', 'complete']);
export type DiscoveryStatus = z.infer<typeof DiscoveryStatus>;

/**
 * A lookup of a patient's coverage. `payerName` and `memberId` are null while pending, and when a complete
 * discovery found nothing.
 */
export const Discovery = z.object({
  status: DiscoveryStatus,
  discoveryId: z.string().min(1),
  payerId: z.string(),
  payerName: z.string().nullable(),
  memberId: z.string().nullable(),
  firstName: PersonName,
  lastName: PersonName,
  dateOfBirth: DateOfBirth,
  state: StateCode,
  id: z.string().optional(),
});
export type Discovery = z.infer<typeof Discovery>;
