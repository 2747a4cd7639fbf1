import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { BATCH_ITEM_MEMO_KEY, type BatchItemMemo } from '../../workflows/batch/batch.js';
import { batchWorkflowId } from '../../workflows/batch/ids.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { TEST_INTAKE_KEY, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import type { WorkflowHarness } from '../../testing/workflow-harness.js';
import { batchIdFor, FAST_BATCH, waitForBatch } from '../../testing/batches.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import type { BatchView } from '../../src/batches/describe.js';
import { batchFields } from '../../src/batches/batch-view.js';
import { batchesList } from '../../apps/console/views/batches.js';
import { ITEM_OUTCOMES, RUNNING_STAGES } from '../../workflows/shared/stages.js';

interface Submitted {
  batchId: string;
  items: number;
  invalid: { row: number; line?: number; param: string; message: string }[];
  duplicate?: boolean;
}
interface Status {
  batchId: string;
  label?: string;
  submittedBy?: string;
  state: string;
  round: number;
  counts: { items: number; queued: number; outcomes: Record<string, number>; running: Record<string, number> };
  groups: Record<string, number>;
}

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

describe('batches through the intake API', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  const client = () => testTemporal().client;

  before(async () => {
    // Discoveries stay pending unless a test completes them: items waiting on one are there to be cancelled.
    ({
      harness: h,
      api,
      stop,
    } = await startIntakeApiHarness({
      sandbox: { discoveryDelayMs: 600_000 },
      // Open a minute after its last item, for the resubmissions below.
      batchTiming: { ...FAST_BATCH, keepOpenSeconds: 60 },
    }));
  });
  after(() => stop?.());

  const call = (options: InjectOptions) =>
    api.inject({
      ...options,
      headers: { 'x-api-key': TEST_INTAKE_KEY, ...(options.headers as Record<string, string>) },
    });
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    call({ method: 'POST', url, payload: payload as object, headers });
  const upload = (csv: string | Buffer, query = '', headers: Record<string, string> = {}) =>
    call({
      method: 'POST',
      url: `/batches${query}`,
      headers: { 'content-type': 'text/csv', ...headers },
      payload: csv,
    });
  const status = async (batchId: string) => (await call({ method: 'GET', url: `/batches/${batchId}` })).json<Status>();
  const itemWorkflows = async (batchId: string) => {
    const byRow = new Map<number, number>();
    for await (const wf of client().workflow.list({
      query: `BatchId = "${batchId}" AND WorkflowType = 'verificationWorkflow'`,
    })) {
      const memo = wf.memo?.[BATCH_ITEM_MEMO_KEY] as BatchItemMemo;
      byRow.set(memo.row, (byRow.get(memo.row) ?? 0) + 1);
    }
    return byRow;
  };

  it('takes a JSON batch, answers which row and field are invalid, and counts its items until they add up', async () => {
    const batchId = batchIdFor('json');
    const before = (await h.sandbox.stats()).verificationsCreated;
    const items = [
      v2Intake(),
      v2Intake({ id: undefined }),
      v2Intake({ patient: { firstName: 'Zelda', lastName: 'Qwerty', dateOfBirth: '13/45/1990' } }),
      v2Intake({ payerId: '99999' }),
    ];
    const response = await post('/batches', {
      batchId,
      items,
      tenant: 'clinic-7',
      retryWindow: '8h',
      label: 'March, clinic 7',
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.equal(response.headers.location, `/batches/${batchId}`);
    const body = response.json<Submitted>();
    assert.equal(body.items, 3);
    assert.deepEqual(
      body.invalid.map((r) => [r.row, r.param]),
      [[3, 'patient.dateOfBirth']],
    );
    assert.doesNotMatch(response.body, /13\/45\/1990|Zelda|Qwerty/, 'no value is echoed');

    await waitForBatch(client(), batchId, (v) => v.state === 'finished');
    const done = await status(batchId);
    assert.deepEqual([done.counts.outcomes.completed, done.counts.outcomes.failed], [2, 1]);
    // People tell batches apart by their label and submitter, in the status and in the list.
    assert.deepEqual([done.label, done.submittedBy], ['March, clinic 7', 'api-key']);
    const listed = (await call({ method: 'GET', url: '/batches?limit=1000' })).json<{ batches: Status[] }>();
    const mine = listed.batches.find((b) => b.batchId === batchId);
    assert.deepEqual([mine?.label, mine?.submittedBy], ['March, clinic 7', 'api-key']);
    assert.equal(sum(done.groups), done.counts.items, 'the groups add up to the items');
    const created = (await h.sandbox.stats()).verificationsCreated - before;
    assert.equal(created, done.counts.outcomes.completed, 'one verification at the service per completed item');
    for await (const wf of client().workflow.list({ query: `BatchId = "${batchId}"` })) {
      assert.equal(wf.typedSearchAttributes.get(Tenant), 'clinic-7', `${wf.workflowId} carries the tenant`);
    }

    const again = await post('/batches', { batchId, items });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json<Submitted>().duplicate, true);
    assert.equal(sum(Object.fromEntries(await itemWorkflows(batchId))), 3, 'submitting again started nothing');

    const results = await call({ method: 'GET', url: `/batches/${batchId}/results` });
    assert.equal(results.statusCode, 200);
    assert.match(String(results.headers['content-type']), /^text\/csv/);
    const rows = parse<Record<string, string>>(results.body, { bom: true, columns: true });
    assert.deepEqual(
      rows.map((r) => [r.row, r.outcome, r.errorField]),
      [
        ['1', 'completed', ''],
        ['2', 'completed', ''],
        ['3', 'invalid', 'patient.dateOfBirth'],
        ['4', 'failed', 'payerId'],
      ],
    );
    assert.match(rows[0]?.verificationId ?? '', /^[0-9a-f-]{36}$/);
    // Payers by name from the service's payer endpoint, not only when a discovery named them; an unknown one by id.
    assert.deepEqual(
      rows.map((r) => [r.payerId, r.payerName]),
      [
        ['60054', 'Evergreen Health Plan'],
        ['60054', 'Evergreen Health Plan'],
        ['', ''],
        ['99999', ''],
      ],
    );
    assert.equal(rows[0]?.callerId, items[0]?.id);
    // An invalid row names the caller id it gave and why it was refused, never the value.
    assert.equal(rows[2]?.callerId, items[2]?.id);
    assert.match(rows[2]?.errorMessage ?? '', /\S/);
    assert.doesNotMatch(results.body, /13\/45\/1990|Zelda|Qwerty/);
    const jsonl = await call({ method: 'GET', url: `/batches/${batchId}/results?format=jsonl` });
    assert.equal(jsonl.body.trim().split('\n').length, 4);

    const failed = await call({ method: 'GET', url: `/batches/${batchId}/items?outcome=failed` });
    assert.deepEqual(
      failed.json<{ items: { row: number; outcome: string }[] }>().items.map((i) => [i.row, i.outcome]),
      [[4, 'failed']],
    );
    // Items come in row order (the file's), page after page: row 3 was invalid, never an item.
    const page = await call({ method: 'GET', url: `/batches/${batchId}/items?limit=2` });
    const first = page.json<{ items: { row: number }[]; nextPageToken?: string }>();
    assert.deepEqual(
      first.items.map((i) => i.row),
      [1, 2],
    );
    const rest = await call({
      method: 'GET',
      url: `/batches/${batchId}/items?limit=2&pageToken=${first.nextPageToken}`,
    });
    const second = rest.json<{ items: { row: number }[]; nextPageToken?: string }>();
    assert.deepEqual([second.items.map((i) => i.row), second.nextPageToken], [[4], undefined]);
    const list = await call({ method: 'GET', url: '/batches?tenant=clinic-7' });
    assert.ok(list.json<{ batches: { batchId: string }[] }>().batches.some((b) => b.batchId === batchId));
  });

  it('resubmits the failed items once however often it is asked, and counts each item once', async () => {
    const batchId = batchIdFor('resubmit');
    const items = [v2Intake(), v2Intake({ payerId: '99999' }), v2Intake({ id: undefined, payerId: '99998' })];
    assert.equal((await post('/batches', { batchId, items })).statusCode, 202);
    await waitForBatch(client(), batchId, (v) => v.state === 'finished');

    const key = { 'idempotency-key': `again-${batchId}` };
    const [a, b] = await Promise.all([
      post(`/batches/${batchId}/resubmit`, { outcomes: ['failed'] }, key),
      post(`/batches/${batchId}/resubmit`, {}),
    ]);
    assert.deepEqual(
      [a, b].map((r) => r.json<{ round: number }>().round),
      [1, 1],
    );
    await waitForBatch(client(), batchId, (v) => v.state === 'finished' && v.lastResubmission?.done === true);
    const retried = await post(`/batches/${batchId}/resubmit`, { outcomes: ['failed'] }, key);
    assert.equal(retried.json<{ round: number }>().round, 1, 'the same key is the same resubmission');
    const byRow = await itemWorkflows(batchId);
    assert.deepEqual(
      [...byRow.entries()].sort(),
      [
        [1, 1],
        [2, 2],
        [3, 2],
      ],
      'each failed row started once more, the completed one never',
    );
    const done = await status(batchId);
    assert.deepEqual([done.round, done.counts.outcomes.failed, done.counts.outcomes.completed], [1, 2, 1]);
    assert.equal(sum(done.groups), 3);

    const superseded = await call({ method: 'GET', url: `/batches/${batchId}/items?outcome=failed&superseded=true` });
    const attempts = superseded.json<{ items: { row: number; round: number; superseded: boolean }[] }>().items;
    // In row order, a row's attempts by round: not as visibility lists them (the latest to close first).
    assert.deepEqual(
      attempts.map((i) => [i.row, i.round, i.superseded]),
      [
        [2, 0, true],
        [2, 1, false],
        [3, 0, true],
        [3, 1, false],
      ],
    );
    const wrong = await post(`/batches/${batchId}/resubmit`, { outcomes: ['completed'] });
    assert.deepEqual([wrong.statusCode, wrong.json<{ param: string }>().param], [400, 'outcomes.0']);
    // N11: Temporal UI shows what a batch and its pages are.
    const batchHandle = client().workflow.getHandle(batchWorkflowId(batchId));
    assert.equal(await (await batchHandle.describe()).staticSummary(), `Batch · batch ${batchId} · items 3`);
    // N7: outcomes no item has open no empty round (and announce nothing again).
    const nothing = await post(`/batches/${batchId}/resubmit`, { outcomes: ['cancelled'] });
    assert.deepEqual([nothing.statusCode, nothing.json<{ error: string }>().error], [409, 'nothing_to_resubmit']);
    assert.equal((await status(batchId)).round, 1, 'no empty round opened');
  });

  it('cancels a batch: its waiting items end cancelled and nothing else starts', async () => {
    const batchId = batchIdFor('cancel');
    const discovery = await h.sandbox.createDiscovery({
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '12/10/1985',
      state: 'NY',
    });
    const items = [1, 2, 3].map(() => v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }));
    assert.equal((await post('/batches', { batchId, items })).statusCode, 202);
    await waitForBatch(client(), batchId, (v) => v.counts.running['awaiting-discovery'] === 3);
    const cancelled = await post(`/batches/${batchId}/cancel`, {});
    assert.equal(cancelled.statusCode, 202, cancelled.body);
    const view = await waitForBatch(client(), batchId, (v) => v.state === 'cancelled');
    assert.equal(view.counts.outcomes.cancelled, 3);
    const twice = await post(`/batches/${batchId}/cancel`, {});
    assert.ok([409].includes(twice.statusCode), twice.body);
    const resubmit = await post(`/batches/${batchId}/resubmit`, { outcomes: ['cancelled'] });
    assert.equal(resubmit.statusCode, 409, resubmit.body);
  });

  it('lists batches newest first, also when an older one closes after a newer one', async () => {
    const tenant = `order-${batchIdFor('t')}`.slice(0, 60);
    const discovery = await h.sandbox.createDiscovery({
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '12/10/1985',
      state: 'NY',
    });
    const waiting = () => [v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId })];
    const [older, newer] = [batchIdFor('older'), batchIdFor('newer')];
    assert.equal((await post('/batches', { batchId: older, items: waiting(), tenant })).statusCode, 202);
    assert.equal((await post('/batches', { batchId: newer, items: waiting(), tenant })).statusCode, 202);
    // The newer batch closes first, the older one later: visibility alone would list the older one first.
    for (const batchId of [newer, older]) {
      assert.equal((await post(`/batches/${batchId}/cancel`, {})).statusCode, 202);
      await waitForBatch(client(), batchId, (v) => v.state === 'cancelled');
    }
    const listed = async (query: string) =>
      (await call({ method: 'GET', url: `/batches?tenant=${tenant}${query}` })).json<{
        batches: Status[];
        nextPageToken?: string;
      }>();
    const all = await listed('');
    assert.deepEqual(
      all.batches.map((b) => b.batchId),
      [newer, older],
    );
    const first = await listed('&limit=1');
    assert.deepEqual(
      first.batches.map((b) => b.batchId),
      [newer],
    );
    const second = await listed(`&limit=1&pageToken=${first.nextPageToken}`);
    assert.deepEqual([second.batches.map((b) => b.batchId), second.nextPageToken], [[older], undefined]);
  });

  describe('refuses a malformed upload with a 400 naming the problem, and starts nothing', () => {
    const header = 'id,payerId,firstName,lastName,dateOfBirth,state,placeOfServiceCode,specialtyCode';
    const row = (i: number) => `up-${i},60054,Ada,Lovelace,12/10/1985,NY,11,PRC`;
    const cases: [string, () => string | Buffer, RegExp][] = [
      ['wrong columns', () => `${header},shoeSize\n${row(1)},42\n`, /unknown CSV column in the header: column 9;/],
      ['bad quoting', () => `${header}\n"up-1,60054,Ada,Lovelace,12/10/1985,NY,11,PRC\n`, /cannot be parsed at line 2/],
      ['10,001 rows', () => [header, ...Array.from({ length: 10_001 }, (_, i) => row(i))].join('\n'), /10001 rows/],
      ['an empty file', () => '', /empty/],
      ['a header only', () => `${header}\n`, /no requests/],
      ['not UTF-8', () => Buffer.from(`${header}\nup-1,60054,Zo\xe9,L,12/10/1985,NY,11,PRC\n`, 'latin1'), /not UTF-8/],
    ];
    for (const [name, body, problem] of cases) {
      it(name, async () => {
        const batchId = batchIdFor('refused');
        const pages = async () =>
          (await client().workflow.count(`WorkflowType = 'batchPageWorkflow' AND BatchId = "${batchId}"`)).count;
        const response = await upload(body(), `?batchId=${batchId}`);
        assert.equal(response.statusCode, 400, response.body);
        const answer = response.json<{ error: string; param: string; message: string }>();
        assert.equal(answer.param, 'body');
        assert.match(answer.message, problem);
        assert.equal(await pages(), 0, 'no page was stored');
      });
    }
  });

  it('takes a CSV upload of the columns `batch` reads, its options in the query', async () => {
    const batchId = batchIdFor('csv');
    const csv = [
      'id,payerId,firstName,lastName,dateOfBirth,state,placeOfServiceCode,specialtyCode',
      `${batchId}-1,60054,Ada,Lovelace,12/10/1985,NY,11,PRC`,
      `${batchId}-2,60054,Ada,Lovelace,13/10/1985,NY,11,PRC`,
    ].join('\n');
    const response = await upload(csv, `?batchId=${batchId}&tenant=clinic-9&retryWindow=90m`, {
      'content-disposition': 'attachment; filename="march-clinic-9.csv"',
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(
      response.json<Submitted>().invalid.map((r) => [r.row, r.line, r.param]),
      [[2, 3, 'patient.dateOfBirth']],
    );
    const view = await waitForBatch(client(), batchId, (v) => v.state === 'finished');
    assert.deepEqual([view.tenant, view.retryWindowSeconds, view.counts.outcomes.completed], ['clinic-9', 5400, 1]);
    assert.equal(view.label, 'march-clinic-9.csv', 'the uploaded file’s name by default');
  });

  it('refuses an all-or-nothing batch with an invalid item, and a batch of no valid item, naming the rows', async () => {
    const allOrNothing = await post('/batches', {
      items: [v2Intake(), v2Intake({ specialtyCode: 'NOPE' })],
      allOrNothing: true,
    });
    assert.equal(allOrNothing.statusCode, 400);
    assert.deepEqual(
      allOrNothing.json<Submitted>().invalid.map((r) => [r.row, r.param]),
      [[2, 'specialtyCode']],
    );
    const none = await post('/batches', { items: [{ nope: true }] });
    assert.deepEqual([none.statusCode, none.json<{ param: string }>().param], [400, 'items']);
    const tooMany = await post('/batches', { items: Array.from({ length: 10_001 }, () => ({})) });
    assert.deepEqual([tooMany.statusCode, tooMany.json<{ param: string }>().param], [400, 'items']);
    const badTenant = await post('/batches', { items: [v2Intake()], tenant: 'Ada Lovelace, 12/10/1985' });
    assert.deepEqual([badTenant.statusCode, badTenant.json<{ param: string }>().param], [400, 'tenant']);
  });
});

describe("a batch's state in words (console, CLI)", () => {
  const zero = <K extends string>(keys: readonly K[]) =>
    Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const settled = {
    batchId: 'words',
    workflowId: 'batch-words',
    state: 'settled',
    phase: 'settled',
    status: 'RUNNING',
    counts: {
      items: 3,
      invalid: 1,
      duplicate: 0,
      notStarted: 0,
      skipped: 0,
      queued: 0,
      running: { ...zero(RUNNING_STAGES), 'awaiting-input': 1 },
      outcomes: { ...zero(ITEM_OUTCOMES), completed: 2 },
    },
    pages: 1,
    round: 0,
    retryWindowSeconds: 3600,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:01:00.000Z',
  } as unknown as BatchView;

  it('never says every item has ended while one waits for a person, and counts one invalid row as a row', () => {
    const page = String(batchesList({ rows: [settled], total: 1, page: 1, pages: 1 }));
    assert.doesNotMatch(page, /every item has ended/);
    assert.match(page, /nothing on its way; not ended: 1 item waiting for a person/);
    assert.match(page, /1 invalid row[^s]/);
    assert.match(batchFields(settled), /state +settled \(nothing on its way; not ended: 1 item waiting for a person\)/);
  });
});
