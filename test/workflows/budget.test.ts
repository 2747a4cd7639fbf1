import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { historyCost, type HistoryCost } from '../../testing/billed-actions.js';
import { HISTORIES_DIR } from '../../testing/histories.js';

/** A path's budget: what its recorded histories cost, and what that buys, so that nothing grows unnoticed. */
interface Budget {
  histories: string[];
  actions: number;
  workflowTasks: number;
  why: string;
}

// One row per path of test/histories/. A change that adds an action or a workflow task raises the row's figure and
// says in `why` what it buys; one that saves lowers it. Rows marked "timing" follow the test's clock (polls, retries
// within a window): a re-recording may move them by a poll.
const BUDGETS: Record<string, Budget> = {
  'happy path (payer known)': {
    histories: ['v2-happy-path'],
    actions: 8,
    workflowTasks: 4,
    why:
      'start, payer lookup, creation, `created` and `completed` upserts, grace timer, the `created` and outcome ' +
      'events’ local-activity tasks (decision 79: each stage indexed and told by the workflow itself)',
  },
  'front desk waiting for created': {
    histories: ['awaited-settled'],
    actions: 9,
    workflowTasks: 5,
    why: 'the happy path and the front desk’s awaitSettled update',
  },
  'v1 creation': {
    histories: ['v1-path'],
    actions: 8,
    workflowTasks: 4,
    why: 'the happy path with a v1 creation',
  },
  'invalid request': {
    histories: ['invalid-request'],
    actions: 3,
    workflowTasks: 1,
    why: 'start, `failed` upsert, the outcome event’s task; no service call',
  },
  'unknown payer': {
    histories: ['unknown-payer'],
    actions: 4,
    workflowTasks: 2,
    why: 'start, the refused lookup, `failed` upsert, the outcome event’s task',
  },
  'discovery completed by webhook (verification + discovery-<id>)': {
    histories: ['discovery-by-signal', 'discovery-owner-by-signal'],
    actions: 10 + 4,
    workflowTasks: 5 + 4,
    why:
      'verification: start, registration, handout signal, `creating`, `created` and `completed` upserts, creation, ' +
      'grace timer, two event tasks; discovery-<id>: start, first poll’s timer, the webhook’s signal, one fetch',
  },
  'discovery found by polling (the verification)': {
    histories: ['discovery-by-polling'],
    actions: 10,
    workflowTasks: 5,
    why: 'as by webhook: the polls are its discovery-<id>’s (not recorded here; see the polling discovery-<id>)',
  },
  'discovery-<id> polling for three waiters': {
    histories: ['discovery-owner-polled'],
    actions: 9,
    workflowTasks: 10,
    why: 'timing: start, a timer and a fetch per poll (3 while the discovery takes 2.5 s), an update per later waiter',
  },
  'discovery-<id> woken for three waiters': {
    histories: ['discovery-owner-three-waiters'],
    actions: 6,
    workflowTasks: 5,
    why: 'start, first poll’s timer, the webhook’s signal, one fetch, an update per later waiter (2)',
  },
  'discovery-<id> started by an early webhook': {
    histories: ['discovery-owner-early-webhook'],
    actions: 3,
    workflowTasks: 2,
    why: 'the receiver’s signal-with-start (read as a start and a signal; billed once), one fetch',
  },
  'discovery workflow on its own': {
    histories: ['discovery-workflow'],
    actions: 3,
    workflowTasks: 3,
    why: 'start, the webhook’s signal, one fetch',
  },
  'webhook delivered four times across receiver replicas (verification + discovery-<id>)': {
    histories: ['repeated-delivery-verification', 'repeated-delivery-discovery'],
    actions: 6 + 11,
    workflowTasks: 3 + 9,
    why: 'each delivery one signal to discovery-<id>, a fetch per new event (2), its poll timers, both cancelled',
  },
  'no coverage': {
    histories: ['no-coverage'],
    actions: 4,
    workflowTasks: 2,
    why: 'start, the look that finds the discovery finished without coverage, `no-coverage` upsert, outcome event task',
  },
  'discovery timed out': {
    histories: ['discovery-timed-out'],
    actions: 5,
    workflowTasks: 3,
    why: 'start, registration, discovery-<id>’s handout saying it timed out, `timed-out` upsert, outcome event task',
  },
  'run awaiting input, answered': {
    histories: ['run-awaiting-input'],
    actions: 16,
    workflowTasks: 8,
    why:
      'the happy path, the run’s signal, `awaiting-input` upsert, timer and event, two answers by update (one the ' +
      'service refused) each with its PUT, the closing upsert',
  },
  'run input rejected, then answered': {
    histories: ['run-input-rejected-then-answered'],
    actions: 15,
    workflowTasks: 8,
    why: 'the run’s signal, an answer by signal refused before any call, then an update and its PUT',
  },
  'run input for a closed verification': {
    histories: ['run-input-workflow'],
    actions: 4,
    workflowTasks: 3,
    why: 'start, the answer’s update and its PUT, a timer',
  },
  cancelled: {
    histories: ['cancelled'],
    actions: 5,
    workflowTasks: 3,
    why: 'start, registration with its discovery-<id>, the cancel signal, `cancelled` upsert, outcome event task',
  },
  'creation response lost': {
    histories: ['lost-create-response'],
    actions: 9,
    workflowTasks: 4,
    why: 'the happy path with the creation sent again, under the same idempotency key, after its response was lost',
  },
  'retry window over': {
    histories: ['retry-window-over'],
    actions: 6,
    workflowTasks: 2,
    why: 'timing: three lookup attempts within the 3 s window, `failed` upsert, outcome event task',
  },
  'v1 review: retried': {
    histories: ['v1-review-retry'],
    actions: 14,
    workflowTasks: 6,
    why: 'an ambiguous v1 creation held for review, a person’s retry, the creation again',
  },
  'v1 review: recorded': {
    histories: ['v1-review-record'],
    actions: 12,
    workflowTasks: 5,
    why: 'an ambiguous v1 creation held for review, a person records the verification id',
  },
  'v1 review: abandoned': {
    histories: ['v1-review-abandon'],
    actions: 9,
    workflowTasks: 4,
    why: 'an ambiguous v1 creation held for review, a person abandons it',
  },
  'batch finished': {
    histories: ['batch-finished'],
    actions: 13,
    workflowTasks: 13,
    why: 'timing: a timer and a count activity per round while its pages run (decision 78), their three reports',
  },
  'batch page': {
    histories: ['batch-page'],
    actions: 4,
    workflowTasks: 4,
    why: 'start, a timer, the batch’s release signal, its items started in one activity (decision 78)',
  },
  'batch cancelled': {
    histories: ['batch-cancelled'],
    actions: 7,
    workflowTasks: 17,
    why: 'start, the cancel update (its signals to 12 pages count where received), a timer, its bookkeeping activities',
  },
  'earlier dispatcher handing over': {
    histories: ['event-dispatcher'],
    actions: 4,
    workflowTasks: 4,
    why: 'an earlier version’s dispatcher on this one: its start, a signal, two hand-over activities (carried, then signalled)',
  },
  'governor cutting the rate': {
    histories: ['governor-cut'],
    actions: 7,
    workflowTasks: 3,
    why: 'three reports (signal-with-start read as start + signal) and the rules’ local-activity task each',
  },
  'governor continuing as new': {
    histories: ['governor-continued-as-new'],
    actions: 15,
    workflowTasks: 3,
    why: 'timing: reports as they came, the rules’ task each, the next run’s start',
  },
  'patient check reusing a verification': {
    histories: ['patient-check-reused'],
    actions: 11,
    workflowTasks: 5,
    why:
      'start, the booking update and its upsert, the visit’s timer, the child verification (2), the next timer; ' +
      'four copies for the front desk (booked, checking, answered, reused)',
  },
  'patient coverage change': {
    histories: ['patient-coverage-change'],
    actions: 17,
    workflowTasks: 8,
    why: 'two bookings, their checks (two children), the change’s upsert and event; a copy for the front desk per change',
  },
  'patient refreshed': {
    histories: ['patient-refreshed'],
    actions: 21,
    workflowTasks: 11,
    why:
      'timing: the booking, four refresh signals (repeats refused), two discoveries and child verifications; ' +
      'copies for the front desk',
  },
  'monthly refresh': {
    histories: ['refresh'],
    actions: 20,
    workflowTasks: 10,
    why: 'timing: a page of patients asked per local-activity task, a timer between pages',
  },
};

async function recordedCosts(): Promise<Map<string, HistoryCost>> {
  const files = (await fs.readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json'));
  const costs = new Map<string, HistoryCost>();
  for (const file of files) {
    const history = historyFromJSON(JSON.parse(await fs.readFile(new URL(file, HISTORIES_DIR), 'utf8')));
    costs.set(file.replace(/\.json$/, ''), historyCost(history.events ?? []));
  }
  return costs;
}

const kinds = (cost: HistoryCost) =>
  Object.entries(cost.byKind)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');

/** What is wrong with a path's costs against its budget: nothing, or what to change and where. */
function budgetProblems(path: string, budget: Budget, costs: ReadonlyMap<string, HistoryCost>): string[] {
  const mine = budget.histories.map((name) => {
    const cost = costs.get(name);
    assert.ok(cost, `${path}: no history ${name}.json`);
    return { name, cost };
  });
  const detail = mine
    .map(({ name, cost }) => `${name}: ${kinds(cost)}; ${cost.workflowTasks} workflow tasks`)
    .join('\n    ');
  const problems = (['actions', 'workflowTasks'] as const).flatMap((measure) => {
    const what = measure === 'actions' ? 'billed actions' : 'workflow tasks';
    const count = mine.reduce((sum, { cost }) => sum + cost[measure], 0);
    if (count > budget[measure]) {
      return [
        `${path}: ${count} ${what}, over its budget of ${budget[measure]}. Take it away, or raise the budget in ` +
          `test/workflows/budget.test.ts and say in its row what it buys.`,
      ];
    }
    if (count < budget[measure])
      return [`${path}: ${count} ${what}, under its budget of ${budget[measure]}: lower the budget to ${count}.`];
    return [];
  });
  // The path's histories by kind, once: where a new action is shows there.
  if (problems.some((p) => p.includes('over its budget'))) problems[problems.length - 1] += `\n    ${detail}`;
  return problems;
}

describe('budgets of billed actions and workflow tasks, from the recorded histories', () => {
  it('gives every recorded history a budget row and every row a recorded history', async () => {
    const recorded = [...(await recordedCosts()).keys()].sort();
    const budgeted = Object.values(BUDGETS).flatMap((b) => b.histories);
    assert.deepEqual(
      recorded.filter((name) => !budgeted.includes(name)),
      [],
      'histories with no budget: add a row',
    );
    assert.deepEqual(
      budgeted.filter((name) => !recorded.includes(name)),
      [],
      'rows naming no history: remove them',
    );
    assert.equal(new Set(budgeted).size, budgeted.length, 'a history belongs to one row');
  });

  it('keeps every path at its budget', async () => {
    const costs = await recordedCosts();
    const problems = Object.entries(BUDGETS).flatMap(([path, budget]) => budgetProblems(path, budget, costs));
    if (problems.length > 0) assert.fail(`\n${problems.join('\n')}`);
  });

  describe('the check itself, on the happy path changed by one event', () => {
    const path = 'happy path (payer known)';
    const budget = BUDGETS[path]!;

    type JsonEvent = { eventType: string };
    async function happyPathWith(change: (events: JsonEvent[]) => void): Promise<ReadonlyMap<string, HistoryCost>> {
      const json = JSON.parse(await fs.readFile(new URL('v2-happy-path.json', HISTORIES_DIR), 'utf8')) as {
        events: JsonEvent[];
      };
      change(json.events);
      return new Map([['v2-happy-path', historyCost(historyFromJSON(json).events ?? [])]]);
    }
    const at = (events: JsonEvent[], type: string) => events.findIndex((e) => e.eventType === `EVENT_TYPE_${type}`);

    it('fails a path given one more activity, asking for a raised budget with a reason', async () => {
      const costs = await happyPathWith((events) => {
        const scheduled = at(events, 'ACTIVITY_TASK_SCHEDULED');
        events.splice(scheduled + 3, 0, ...structuredClone(events.slice(scheduled, scheduled + 3)));
      });
      const problems = budgetProblems(path, budget, costs);
      assert.equal(problems.length, 1);
      const over = `${budget.actions + 1} billed actions, over its budget of ${budget.actions}`;
      assert.match(problems[0]!, new RegExp(`${over}\\. .*raise the budget`));
      assert.match(problems[0]!, /activityAttempts 3/);
    });

    it('fails a path given one more search-attribute upsert', async () => {
      const costs = await happyPathWith((events) => {
        const upsert = at(events, 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES');
        events.splice(upsert, 0, structuredClone(events[upsert]!));
      });
      const over = `${budget.actions + 1} billed actions, over its budget of ${budget.actions}`;
      assert.match(budgetProblems(path, budget, costs).join('\n'), new RegExp(`${over}.*upserts 3`, 's'));
    });

    it('asks for a lower budget when a path costs less', async () => {
      const costs = await happyPathWith((events) => {
        events.splice(at(events, 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES'), 1);
      });
      assert.deepEqual(budgetProblems(path, budget, costs), [
        `${path}: ${budget.actions - 1} billed actions, under its budget of ${budget.actions}: lower the budget to ${budget.actions - 1}.`,
      ]);
    });
  });
});
