import type { VisitCoverage } from '../../../src/visits/index.js';

/** Where a visit's coverage stands, in the front desk's words: Today, the patient page and the lists say it alike. */
export const COVERAGE_WORDS: Record<VisitCoverage, string> = {
  verified: 'Verified, active',
  'no-coverage': 'No coverage',
  'needs-input': 'Needs input',
  failed: 'Check failed',
  checking: 'Checking',
  'not-checked': 'Not checked yet',
  changed: 'Changed since last time',
};
