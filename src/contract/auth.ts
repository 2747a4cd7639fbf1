import { z } from 'zod';

export const TokenRequest = z.object({ client_id: z.string().min(1), client_secret: z.string().min(1) });
export type TokenRequest = z.infer<typeof TokenRequest>;

/**
 * The unit of `expires_in` is not shown in the spec; the project reads it as seconds
 * (docs/decisions/0001-service-contract-gaps.md).
 */
export const AccessToken = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});
export type AccessToken = z.infer<typeof AccessToken>;
