import { z } from 'zod';

/**
 * Every list of the product pages one way (decision 76): at most `limit` items, and an opaque token for the next
 * page, absent on the last. A token is base64url of JSON naming its list and that list's cursor (Temporal's own page
 * token, a time and an id, a sequence number): never a patient value, since tokens travel in URLs and access logs.
 */

/** `limit`'s default and maximum, the same for every list of the intake API and the CLI. */
export const PAGE_SIZE = { default: 50, max: 1000 } as const;

/** What a caller asks of a list. */
export interface PageRequest {
  limit: number;
  pageToken?: string;
}

/** A page of a list: `nextPageToken` is absent on the last page. */
export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

/** The lists that page; a token names its list, so that one list refuses another's token. */
export type PagedList =
  | 'verifications'
  | 'verification-search'
  | 'batches'
  | 'batch-items'
  | 'coverage-changes'
  | 'event-endpoints'
  | 'deliveries'
  | 'audit';

/** A token this list did not hand out (malformed, of another list, or edited): the edges answer it as `pageToken`. */
export class InvalidPageToken extends Error {
  override name = 'InvalidPageToken';
  constructor(readonly list: PagedList) {
    super('not a page token of this list: pass back the one the page before gave, with the same filters');
  }
}

export function pageToken(list: PagedList, cursor: unknown): string {
  return Buffer.from(JSON.stringify({ l: list, c: cursor })).toString('base64url');
}

/** The cursor inside a token of `list`; throws InvalidPageToken for anything else. */
export function readPageToken<C>(list: PagedList, token: string, cursor: z.ZodType<C>): C {
  let envelope: { l?: unknown; c?: unknown } | undefined;
  try {
    envelope = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof envelope;
  } catch {
    throw new InvalidPageToken(list);
  }
  const read = envelope?.l === list ? cursor.safeParse(envelope.c) : undefined;
  if (!read?.success) throw new InvalidPageToken(list);
  return read.data;
}

/** A position in a sorted list: a time or a number, then an id for ties. */
export type Key = readonly [string | number, string];

const KeyCursor = z.tuple([z.union([z.string(), z.number()]), z.string()]);

const compare = (a: Key, b: Key) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/**
 * Pages of a list read whole (a tenant's endpoints, the Changes list), in `order` of `keyOf`: a page holds the items
 * after the cursor's key, so that an item added or removed between pages moves no other one onto the wrong page. The
 * token is read first, so that a bad one is refused before anything is read.
 */
export function keysetPager<T>(
  list: PagedList,
  page: PageRequest,
  keyOf: (item: T) => Key,
  order: 'asc' | 'desc',
): (all: readonly T[]) => Page<T> {
  const sign = order === 'asc' ? 1 : -1;
  const after = page.pageToken ? readPageToken(list, page.pageToken, KeyCursor) : undefined;
  return (all) => {
    const sorted = [...all].sort((a, b) => sign * compare(keyOf(a), keyOf(b)));
    const rest = after ? sorted.filter((item) => sign * compare(keyOf(item), after) > 0) : sorted;
    const items = rest.slice(0, page.limit);
    const last = items.at(-1);
    return { items, ...(rest.length > items.length && last ? { nextPageToken: pageToken(list, keyOf(last)) } : {}) };
  };
}
