import { z } from 'zod';
import { isWellFormedText } from '../contract/verification-intake.js';

/** The most items one batch takes (a clearinghouse's usual bound); a larger file is refused whole. */
export const MAX_BATCH_ITEMS = 10_000;
/**
 * Rows per page workflow. A page's requests are its input: 200 requests of at most about 1.5 KB each stay far under
 * Temporal's 2 MB payload limit (and its history's 4 MB continue-as-new hint) whatever the rows hold.
 */
export const PAGE_SIZE = 200;
const MAX_RETRY_WINDOW_SECONDS = 7 * 24 * 3600;

/**
 * A batch id: letters, digits, `_` and `-`, at most 64. No `.`, so the ids derived from it (`batch-<id>.page-<n>`,
 * workflows/batch/ids.ts) stay unambiguous; no quotes, so it is safe inside a visibility query.
 */
export const BatchIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1 to 64 letters, digits, _ or -')
  .describe('The batch id: letters, digits, _ or -');

// Defined with the single intake's start (src/temporal/tenant.ts): a batch's tenant is the same thing.
export { TenantSchema } from '../temporal/tenant.js';

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** `retryWindow`: whole seconds, or a number with a unit (`90m`, `8h`, `1d`); 1 s to 7 days. */
export const RetryWindowSchema = z
  .union([
    z.number().int(),
    z
      .string()
      .regex(/^\d+(\.\d+)?[smhd]?$/, 'expected seconds or a duration such as 90m, 8h or 1d')
      .transform((text) => {
        const unit = /[smhd]$/.test(text) ? (text.slice(-1) as keyof typeof UNIT_SECONDS) : 's';
        return Math.round(Number.parseFloat(text) * UNIT_SECONDS[unit]);
      }),
  ])
  .pipe(z.number().int().min(1).max(MAX_RETRY_WINDOW_SECONDS, 'must be at most 7 days'))
  .describe('How long failing service calls of the items are retried: seconds, or e.g. 8h (default 24h)');

/** `true`/`false` as JSON or as a query string's text. */
export const BooleanFlag = z.union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')]);

/** A control character (C0 or DEL): a label is one line of printable text. */
const isControl = (char: string) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f;

/**
 * A batch's label: what people call it (by default the file's name). Caller text, so it may hold anything, a
 * patient's name too: it lives in the batch's memo (encrypted with the payloads) and answers, never in a search
 * attribute, a log line or an id.
 */
export const BatchLabelSchema = z
  .string()
  .min(1)
  .max(120)
  .refine((text) => ![...text].some(isControl) && isWellFormedText(text), 'expected printable text')
  .describe('What people call the batch, e.g. `march-clinic-a.csv` (default: the uploaded file’s name); at most 120');
