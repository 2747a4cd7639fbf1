import type { z } from 'zod';

/** What `input` is called when a schema expects it (zod's type names, said as an integrator would). */
const KINDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
  date: 'a date',
  bigint: 'a whole number',
};

/** What a format check expects, for the formats the edges use. */
const FORMATS: Record<string, string> = {
  date: 'a date as YYYY-MM-DD',
  datetime: 'a date and time (ISO 8601)',
  uuid: 'a UUID',
  email: 'an email address',
  url: 'a URL',
};

const list = (values: readonly unknown[]) => values.map(String).join(', ');

function sizeWords(issue: { origin: string; inclusive?: boolean }, bound: unknown, most: boolean): string {
  const unit =
    issue.origin === 'string' ? ' characters' : issue.origin === 'array' || issue.origin === 'set' ? ' items' : '';
  if (issue.origin === 'string' && !most && Number(bound) === 1) return 'must not be empty';
  if (issue.inclusive === false) return `${most ? 'less' : 'more'} than ${String(bound)}${unit}`;
  return `at ${most ? 'most' : 'least'} ${String(bound)}${unit}`;
}

/**
 * A zod issue in plain words, one style for every edge (the intake API's 400s, batch results, upload rows): a missing
 * field is "required", a wrong type "expected a string", an unknown field "unknown field", an enum "expected one of:
 * a, b, c". Passed as the `error` of a parse, so a schema's own message (a refine's) still wins. Never the value:
 * zod hands it over, and it may be patient data.
 */
export const plainIssue: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `expected ${KINDS[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `expected ${String(issue.values[0])}`
        : `expected one of: ${list(issue.values)}`;
    case 'unrecognized_keys':
      return 'unknown field';
    case 'invalid_format':
      if (issue.format === 'regex') return 'not in the expected form';
      return `expected ${FORMATS[issue.format] ?? `the ${issue.format} format`}`;
    case 'too_big':
      return sizeWords(issue, issue.maximum, true);
    case 'too_small':
      return sizeWords(issue, issue.minimum, false);
    case 'not_multiple_of':
      return `expected a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'matches none of the accepted forms';
    default:
      return 'invalid';
  }
};

/** Parse options that word every issue with `plainIssue`. */
export const PLAIN = { error: plainIssue } as const;
