import type { TrafficStack } from './stack.js';

/** One line of the bench's report: a figure measured in this run, with what it is measured against. */
export interface Figure {
  scenario: string;
  /** `project` or `naive peer` (or a lane, a tenant: what the scenario compares). */
  subject: string;
  name: string;
  value: string;
  /** What the issue asks for, when it sets a target. */
  target?: string;
}

/**
 * A scenario of `npm run bench:traffic`, selectable with `--only <name>`. Each runs against the shared stack (a dev
 * server, the sandbox) and starts whatever workers it needs; it returns its figures for the final table.
 */
export interface TrafficScenario {
  name: string;
  description: string;
  run(stack: TrafficStack, options: { count: number; log: (line: string) => void }): Promise<Figure[]>;
}
