import { CSRF_FIELD } from '../csrf.js';
import { html, type Html } from './html.js';
import type { NavCounts } from '../nav-counts.js';

/** The sections of the console, in the order of its navigation. */
export const SECTIONS = [
  { path: '/today', label: 'Today' },
  { path: '/patients', label: 'Patients' },
  { path: '/verifications', label: 'Find' },
  { path: '/failed', label: 'Failed', count: 'failed' },
  { path: '/awaiting-input', label: 'Needs input', count: 'awaiting-input' },
  { path: '/needs-review', label: 'Needs review', count: 'needs-review' },
  { path: '/changes', label: 'Changes', count: 'changes' },
  { path: '/recent', label: 'Recent' },
  { path: '/batches', label: 'Batches' },
  { path: '/schedules', label: 'Refreshes' },
  { path: '/event-endpoints', label: 'Event endpoints' },
  { path: '/temporal-ui', label: 'Temporal UI' },
] as const;
/** The administrators' sections, in the navigation of the `admin` role only. */
export const ADMIN_SECTIONS = [
  { path: '/admin/clients', label: 'Intake clients' },
  { path: '/admin/operators', label: 'Operators' },
  { path: '/admin/audit', label: 'Audit trail' },
] as const;
export type SectionPath = (typeof SECTIONS | typeof ADMIN_SECTIONS)[number]['path'];

export interface PageFrame {
  /** The browser's title: never patient data (it lands in the browser's history). */
  title: string;
  /** The page's heading when it is not the title (a patient's name). */
  heading?: Html | string;
  /** The section the page belongs to, marked as current in the navigation. */
  section?: SectionPath;
  /** Absent on the sign-in page. */
  operator?: string;
  /** The operator's role, shown beside their name. */
  role?: string;
  csrf?: string;
  /** A one-time notice (role=status, read out by screen readers). */
  notice?: string;
  /** How many each worklist holds, shown beside its link. */
  counts?: NavCounts;
}

export const hiddenCsrf = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;

function header(frame: PageFrame): Html {
  if (!frame.operator || !frame.csrf)
    return html`<header class="top"><span class="brand">Eligibility console</span></header>`;
  const sections = frame.role === 'admin' ? [...SECTIONS, ...ADMIN_SECTIONS] : SECTIONS;
  const links = sections.map((s) => {
    const count = 'count' in s ? frame.counts?.[s.count] : undefined;
    const shown = count === undefined ? '' : html` <span class="count">${count}</span>`;
    return html`<li>
      <a href="${s.path}" ${s.path === frame.section ? html` aria-current="page"` : ''}>${s.label}${shown}</a>
    </li>`;
  });
  return html`<header class="top">
    <span class="brand">Eligibility console</span>
    <nav aria-label="Sections">
      <ul>
        ${links}
      </ul>
    </nav>
    <form method="post" action="/sign-out" class="sign-out">
      ${hiddenCsrf(frame.csrf)}
      <span>Signed in as <strong>${frame.operator}</strong>${frame.role ? html` (${frame.role})` : ''}</span>
      <button type="submit">Sign out</button>
    </form>
  </header>`;
}

export function page(frame: PageFrame, content: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${frame.title} · Eligibility console</title>
        <link rel="stylesheet" href="/assets/console.css" />
        <script src="/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${header(frame)}
        <main id="main">
          <h1>${frame.heading ?? frame.title}</h1>
          ${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''} ${content}
        </main>
      </body>
    </html> `.text;
}

/** A duration for people: "3 min", "2 h 5 min", "4 d 1 h". */
export function age(fromIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(fromIso)) / 60_000));
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A time for people, in UTC (operators of one team may sit in different zones), with the machine-readable value. */
export const time = (iso: string | undefined) =>
  iso
    ? html`<time datetime="${iso}"
        >${iso
          .replace('T', ' ')
          .replace(/\.\d+Z$/, 'Z')
          .replace('Z', ' UTC')}</time
      >`
    : '';
