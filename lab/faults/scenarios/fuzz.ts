import { randomBytes } from 'node:crypto';
import { table } from '../../../src/text-format.js';
import type { ScenarioFigures } from '../figures.js';
import { generateCases, isValidKind, type FuzzCase } from '../fuzz/cases.js';
import { workflowsOnQueue } from '../fuzz/census.js';
import { judge, type FuzzVerdict } from '../fuzz/judge.js';
import { inLanes, postVerification, type IntakeAnswer } from '../intake-http.js';
import type { FaultStack } from '../stack.js';

export interface FuzzOptions {
  seed: number;
  count: number;
}

const LANES = 16;

function kindTable(verdict: FuzzVerdict): string {
  return table(
    ['kind', 'sent', '202/200', '400+param', 'param as generated', 'other', '5xx', 'workflows', 'echoed', 'failed'],
    verdict.kinds.map((k) => [
      k.kind,
      k.sent,
      `${k.started}/${k.duplicateAnswers}`,
      k.refusedNamingField,
      isValidKind(k.kind) || k.kind === 'duplicate caller id' ? '' : k.namedAsGenerated,
      k.otherStatus,
      k.fiveXx,
      k.workflows,
      k.echoed,
      k.failed,
    ]),
  );
}

/**
 * `count` generated intake requests (seeded: the same seed sends the same requests) through `POST /verifications`
 * of an intake API whose task queue no worker polls, so a started verification costs one workflow start and nothing
 * more. Repeated caller ids are sent after everything else, once their original has been answered. Workflows are then
 * counted through visibility and matched to requests by caller id.
 */
export async function fuzzIntake(
  stack: FaultStack,
  options: FuzzOptions,
  log: (line: string) => void,
): Promise<ScenarioFigures> {
  const tag = randomBytes(3).toString('hex');
  const taskQueue = `faults-fuzz-${tag}`;
  const cases = generateCases(options.seed, options.count, `fz-${tag}`);
  const intake = await stack.startIntake(taskQueue);
  const answers: IntakeAnswer[] = new Array<IntakeAnswer>(cases.length);
  const startedAt = Date.now();
  let done = 0;
  const send = async (c: FuzzCase) => {
    answers[c.index] = await postVerification(intake, c.text, 60_000);
    done += 1;
    if (done % 2000 === 0)
      log(`  fuzz: ${done}/${cases.length} sent (${Math.round((Date.now() - startedAt) / 1000)} s)`);
  };
  try {
    await inLanes(
      cases.filter((c) => c.kind !== 'duplicate caller id'),
      LANES,
      send,
    );
    await inLanes(
      cases.filter((c) => c.kind === 'duplicate caller id'),
      LANES,
      send,
    );
  } finally {
    await intake.close();
  }
  log(
    `  fuzz: ${cases.length} requests answered in ${Math.round((Date.now() - startedAt) / 1000)} s (seed ${options.seed})`,
  );
  const startedAnswers = answers.filter((a) => a.status === 202).length;
  const executions = await workflowsOnQueue(stack.client, taskQueue, startedAnswers, 60_000);
  const verdict = judge(cases, answers, executions);
  for (const line of kindTable(verdict).split('\n')) log(`  ${line}`);
  log(
    `  workflows on the fuzz queue: ${verdict.workflowsTotal} (${verdict.distinctWorkflowIds} ids, ` +
      `${verdict.unattributed} not matching any request's caller id); valid requests without a workflow ` +
      `${verdict.validWithoutWorkflow}, with more than one ${verdict.validWithSeveral}`,
  );
  const valid = cases.filter((c) => isValidKind(c.kind)).length;
  return {
    scenario: `fuzz (${cases.length} payloads)`,
    rows: cases.length,
    created: verdict.workflowsTotal,
    distinct: valid,
    duplicates: verdict.extraExecutions,
    lost: verdict.validWithoutWorkflow,
    invalidAccepted: verdict.invalidAccepted,
    echoed: verdict.echoed,
    fiveXx: { whileUp: verdict.fiveXx },
  };
}
