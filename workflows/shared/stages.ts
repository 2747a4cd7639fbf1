/*
 * Every stage of a verification and everything the product says about it, in one table
 * (docs/integrating/verifications.md). The lists the API, the CLI and the search attribute use, the groups a batch is
 * followed by, the titles people read and the counts all derive from it; nothing else spells the stages out.
 */

/** The groups a person follows a batch by: five that every batch has, then two that only some have. */
export const PROGRESS_GROUPS = [
  'completed',
  'no-coverage',
  'failed',
  'needs input',
  'in progress',
  'cancelled',
  'duplicate',
] as const;
export type ProgressGroup = (typeof PROGRESS_GROUPS)[number];

interface StageFacts {
  /** The verification still runs at this stage; otherwise the stage is its outcome. */
  running: boolean;
  /** Nothing about a verification here is settled yet: no person or grace period holds it, it is on its way. */
  onItsWay?: boolean;
  /** An outcome a batch resubmission may take up again. */
  resubmittable?: boolean;
  /** The group a batch counts it in. */
  group: ProgressGroup;
  /** What a person reads (Temporal UI's current details, the console). */
  title: string;
}

/** In order: the running stages as a verification passes them, then the outcomes. */
export const STAGE_TABLE = {
  validating: { running: true, onItsWay: true, group: 'in progress', title: 'Validating the request' },
  'awaiting-discovery': { running: true, onItsWay: true, group: 'in progress', title: 'Awaiting discovery' },
  creating: { running: true, onItsWay: true, group: 'in progress', title: 'Creating the verification' },
  'needs-review': { running: true, group: 'needs input', title: 'Needs review' },
  // The service has the verification; the workflow waits out its grace period for runs.
  created: { running: true, group: 'completed', title: 'Created' },
  'awaiting-input': { running: true, group: 'needs input', title: 'Awaiting input' },
  completed: { running: false, group: 'completed', title: 'Completed' },
  failed: { running: false, resubmittable: true, group: 'failed', title: 'Failed' },
  'no-coverage': { running: false, resubmittable: true, group: 'no-coverage', title: 'No coverage' },
  'timed-out': { running: false, resubmittable: true, group: 'failed', title: 'Timed out' },
  cancelled: { running: false, resubmittable: true, group: 'cancelled', title: 'Cancelled' },
  // A person's decision: never taken up again by a resubmission.
  abandoned: { running: false, group: 'failed', title: 'Abandoned' },
} as const satisfies Record<string, StageFacts>;

type Table = typeof STAGE_TABLE;
export type Stage = keyof Table;
export type RunningStage = { [S in Stage]: Table[S]['running'] extends true ? S : never }[Stage];
export type Outcome = Exclude<Stage, RunningStage>;

/**
 * How a batch item ended: its verification's outcome, or `terminated` when it was closed from outside (Temporal's
 * word, not a stage the workflow records).
 */
export type ItemOutcome = Outcome | 'terminated';
/** The group of an item closed from outside. */
const TERMINATED_GROUP: ProgressGroup = 'failed';

const stages = Object.keys(STAGE_TABLE) as Stage[];
const facts = (stage: Stage): StageFacts => STAGE_TABLE[stage];
type NonEmpty<T> = readonly [T, ...T[]];

/** Every stage, the values of the `VerificationStage` search attribute. */
export const STAGES = stages as unknown as NonEmpty<Stage>;
export const RUNNING_STAGES = stages.filter((s) => facts(s).running) as unknown as NonEmpty<RunningStage>;
export const OUTCOMES = stages.filter((s) => !facts(s).running) as unknown as NonEmpty<Outcome>;
export const ITEM_OUTCOMES = [...OUTCOMES, 'terminated'] as unknown as NonEmpty<ItemOutcome>;
/** Outcomes a resubmission may take up again; `completed` is done and `abandoned` was a person's decision. */
export const RESUBMITTABLE_OUTCOMES = [
  ...OUTCOMES.filter((o) => facts(o).resubmittable),
  'terminated',
] as unknown as NonEmpty<ResubmittableOutcome>;
export type ResubmittableOutcome =
  { [O in Outcome]: Table[O] extends { resubmittable: true } ? O : never }[Outcome] | 'terminated';

/** Running stages on their way: a batch whose items are all past them has settled. */
export const ON_THEIR_WAY = RUNNING_STAGES.filter((s) => facts(s).onItsWay === true);

/**
 * Past the stages on their way: created, awaiting input, needing review, or an outcome. The front desk's answer
 * (`Prefer: wait`) waits for this; the verification may still change, but a person has something to act on.
 */
export const isSettled = (stage: Stage): boolean => !(ON_THEIR_WAY as readonly Stage[]).includes(stage);

export const isRunningStage = (value: unknown): value is RunningStage =>
  (RUNNING_STAGES as readonly unknown[]).includes(value);
export const isOutcome = (value: unknown): value is Outcome => (OUTCOMES as readonly unknown[]).includes(value);

export const stageTitle = (stage: Stage): string => facts(stage).title;

/** The progress group of a running stage or of an item's outcome. */
export const groupOf = (stageOrOutcome: Stage | ItemOutcome): ProgressGroup =>
  stageOrOutcome === 'terminated' ? TERMINATED_GROUP : facts(stageOrOutcome).group;
