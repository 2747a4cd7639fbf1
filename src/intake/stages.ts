import type { Stage } from '../../workflows/types.js';

/** The `Stage` union as values, for validating `?stage=`; the checks below fail to compile when the two drift. */
export const STAGES = [
  'validating',
  'awaiting-discovery',
  'creating',
  'created',
  'awaiting-input',
  'completed',
  'failed',
  'no-coverage',
  'timed-out',
  'cancelled',
] as const satisfies readonly Stage[];

type Missing = Exclude<Stage, (typeof STAGES)[number]>;
const _everyStageListed: [Missing] extends [never] ? true : Missing = true;
void _everyStageListed;
