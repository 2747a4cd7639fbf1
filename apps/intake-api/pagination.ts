import { z } from 'zod';
import { PAGE_SIZE } from '../../src/pages.js';

/**
 * The one pagination contract of the intake API's lists (decision 76, docs/integrating/intake-api.md#pagination):
 * `limit` and an opaque `pageToken` in, the items and `nextPageToken` out. Every list route declares these schemas,
 * so the OpenAPI document shows the same parameters on each, and the route walk checks that none is missing.
 */

const LIMIT = `At most this many (1–${PAGE_SIZE.max}, default ${PAGE_SIZE.default}). A page may hold fewer, even none, and not be the last: the last page is the one without \`nextPageToken\``;

/** A token as the lists hand them out (base64url); what it holds is the list's business, checked by the list. */
const PageToken = z
  .string()
  .min(1)
  .max(4000)
  .regex(/^[A-Za-z0-9_-]+$/, 'expected the nextPageToken of a page before')
  .describe('The `nextPageToken` of the page before, with the same filters; opaque. Without it, the first page');

/** `limit` and `pageToken` in a GET list's query string. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE.max).default(PAGE_SIZE.default).describe(LIMIT),
  pageToken: PageToken.optional(),
});

/** The same two fields in a body (`POST /verifications/search`), where a number is a JSON number. */
export const PageFields = {
  limit: z.number().int().min(1).max(PAGE_SIZE.max).default(PAGE_SIZE.default).describe(LIMIT),
  pageToken: PageToken.optional(),
};

const NextPageToken = z
  .string()
  .optional()
  .describe('Present while there is more: send it as `pageToken` for the next page. Absent on the last page');

/** A list's answer: a page of its items under `name`, and `nextPageToken` while there is more. */
export function pageOf<const K extends string, T extends z.ZodType>(name: K, item: T) {
  const shape = { [name]: z.array(item), nextPageToken: NextPageToken } as Record<K, z.ZodArray<T>> & {
    nextPageToken: typeof NextPageToken;
  };
  return z.object(shape);
}
