import { z } from 'zod';

export const Payer = z.object({
  payerId: z.string().min(1),
  payerName: z.string().min(1),
  aliasPayerIds: z.array(z.string()),
  aliasPayerNames: z.array(z.string()),
});
export type Payer = z.infer<typeof Payer>;
