import { InvalidArgumentError, Option } from 'commander';
import { PAGE_SIZE, type PageRequest } from '../../src/pages.js';

/** `--limit` and `--page-token`, as every list command takes them (the intake API's contract, decision 76). */
export interface PageOptions {
  limit: number;
  pageToken?: string;
}

function limit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > PAGE_SIZE.max) {
    throw new InvalidArgumentError(`expected a whole number from 1 to ${PAGE_SIZE.max}.`);
  }
  return n;
}

/** `--limit <n>`: 1 to the maximum, the intake API's default. */
export const limitOption = () =>
  new Option('--limit <n>', `at most this many (1–${PAGE_SIZE.max})`).argParser(limit).default(PAGE_SIZE.default);

export const pageTokenOption = () =>
  new Option('--page-token <token>', 'the next page: the token printed after the page before');

export const pageRequest = (options: PageOptions): PageRequest => ({
  limit: options.limit,
  ...(options.pageToken ? { pageToken: options.pageToken } : {}),
});

/** How to ask for the next page, when there is one: on stderr when stdout is data a program reads. */
export function printNextPage(nextPageToken: string | undefined, to: 'stdout' | 'stderr' = 'stdout'): void {
  if (!nextPageToken) return;
  const line = `next page: --page-token ${nextPageToken}`;
  if (to === 'stderr') console.error(line);
  else console.log(line);
}
