import { html, type Html } from './html.js';
import { PAGE_SIZE } from '../reads/worklists.js';

/** One page of rows, 1-based: what it holds and how many pages there are. */
export interface Paged<T> {
  rows: readonly T[];
  page: number;
  pages: number;
  total: number;
}

/** The page asked for in the URL (`?page=`), 1 when absent or not a page number. */
export function pageParam(query: unknown): number {
  const value = Number((query as { page?: unknown } | undefined)?.page);
  return Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : 1;
}

/** Page `page` of `rows` (the last page when past the end). */
export function paged<T>(rows: readonly T[], page: number, size = PAGE_SIZE): Paged<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(page, pages);
  return { rows: rows.slice((current - 1) * size, current * size), page: current, pages, total: rows.length };
}

/** Links to the previous and next pages, keeping the list's other parameters (`params`: identifiers only). */
export function pager(
  path: string,
  p: Pick<Paged<unknown>, 'page' | 'pages'>,
  params: Record<string, string> = {},
): Html {
  if (p.pages <= 1) return html``;
  const href = (page: number) => `${path}?${new URLSearchParams({ ...params, page: String(page) }).toString()}`;
  return html`<nav class="pager" aria-label="Pages">
    ${p.page > 1 ? html`<a href="${href(p.page - 1)}" rel="prev">Previous page</a>` : ''}
    <span>Page ${p.page} of ${p.pages}</span>
    ${p.page < p.pages ? html`<a href="${href(p.page + 1)}" rel="next">Next page</a>` : ''}
  </nav>`;
}
