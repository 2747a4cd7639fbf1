import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import { EndpointCreateRequest, EndpointUpdateRequest } from '../../apps/intake-api/event-schemas.js';
import { TEST_INTAKE_KEY, v1Intake, v2Intake } from '../../testing/fixtures.js';

const PROTOTYPE_KEY = 'the body holds a "__proto__" or "constructor.prototype" key, which this API refuses';

/** A value no answer may repeat: every unknown field below carries it. */
const SECRET = 'W77-SECRET-4401';

interface Case {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  payload?: unknown;
  /** The field the 400 names. */
  param: string;
}

const patient = v2Intake().patient;
const runInput = '/verifications/verification-x/runs/run-1/input';
const CASES: Case[] = [
  {
    name: 'a misspelled patient field',
    method: 'POST',
    url: '/verifications',
    payload: v2Intake({ patient: { ...patient, memberID: SECRET } }),
    param: 'patient.memberID',
  },
  {
    name: 'data the intake must not take',
    method: 'POST',
    url: '/verifications',
    payload: v2Intake({ patient: { ...patient, ssn: SECRET } }),
    param: 'patient.ssn',
  },
  {
    name: 'an unknown top-level field',
    method: 'POST',
    url: '/verifications',
    payload: v2Intake({ foo: SECRET }),
    param: 'foo',
  },
  {
    name: 'a misspelled subscriber field',
    method: 'POST',
    url: '/verifications',
    payload: v2Intake({ subscriber: { firstName: 'A', lastName: 'B', dateOfBirth: '01/02/1980', dob: SECRET } }),
    param: 'subscriber.dob',
  },
  {
    name: 'a misspelled v1 field',
    method: 'POST',
    url: '/verifications',
    payload: v1Intake({ memberID: SECRET }),
    param: 'memberID',
  },
  {
    name: 'a misspelled tenant',
    method: 'POST',
    url: '/verifications',
    payload: v2Intake({ tennant: SECRET }),
    param: 'tennant',
  },
  {
    name: 'run input beside an unknown field',
    method: 'POST',
    url: runInput,
    payload: { input: {}, inputs: { a: SECRET } },
    param: 'inputs',
  },
  {
    name: 'a misspelled review field',
    method: 'POST',
    url: '/verifications/verification-x/review',
    payload: { action: 'abandon', verificationID: SECRET },
    param: 'verificationID',
  },
  {
    name: 'an extra review field',
    method: 'POST',
    url: '/verifications/verification-x/review',
    payload: { action: 'retry', reason: SECRET },
    param: 'reason',
  },
  {
    name: 'a misspelled batch option',
    method: 'POST',
    url: '/batches',
    payload: { items: [v2Intake()], allOrNothng: true, note: SECRET },
    param: 'allOrNothng',
  },
  {
    name: 'a misspelled resubmit field',
    method: 'POST',
    url: '/batches/b-1/resubmit',
    payload: { outcome: ['failed'], why: SECRET },
    param: 'outcome',
  },
  {
    name: 'a body sent to a route that takes none',
    method: 'POST',
    url: '/verifications/verification-x/cancel',
    payload: { reason: SECRET },
    param: 'reason',
  },
  {
    name: 'a query parameter sent to a route that takes none',
    method: 'GET',
    url: `/verifications/verification-x?verbose=${SECRET}`,
    param: 'verbose',
  },
  { name: 'a misspelled list parameter', method: 'GET', url: `/verifications?stag=${SECRET}`, param: 'stag' },
  { name: 'a misspelled batch list parameter', method: 'GET', url: `/batches?limt=${SECRET}`, param: 'limt' },
  {
    name: 'a misspelled items parameter',
    method: 'GET',
    url: `/batches/b-1/items?outcomes=${SECRET}`,
    param: 'outcomes',
  },
  {
    name: 'a misspelled results parameter',
    method: 'GET',
    url: `/batches/b-1/results?fromat=${SECRET}`,
    param: 'fromat',
  },
  {
    name: 'upload options beside a JSON body',
    method: 'POST',
    url: `/batches?tenant=${SECRET}`,
    payload: { items: [v2Intake()] },
    param: 'tenant',
  },
];

const BODY_ROUTES = [
  '/verifications',
  runInput,
  '/verifications/verification-x/review',
  '/batches',
  '/batches/b-1/resubmit',
];

describe('intake API: malformed payloads, unknown and misspelled fields', function () {
  this.timeout(20_000);
  let api: FastifyInstance;
  let connection: Connection;

  before(async () => {
    const config = loadConfig('intake', {
      INTAKE_API_KEY: TEST_INTAKE_KEY,
      LOG_LEVEL: 'silent',
      INTAKE_TEMPORAL_TIMEOUT_MS: '500',
    });
    // Every refusal here comes before any Temporal call: a server that cannot be reached proves it.
    connection = Connection.lazy({ address: '127.0.0.1:1' });
    api = createIntakeApi({ config, client: new Client({ connection }), taskQueue: 'q', logger: createLogger(config) });
    await api.ready();
  });
  after(async () => {
    await api.close();
    await connection.close();
  });

  for (const { name, method, url, payload, param } of CASES) {
    it(`refuses ${name} with 400 naming ${param}, never echoing its value`, async () => {
      const response = await api.inject({
        method,
        url,
        headers: { 'x-api-key': TEST_INTAKE_KEY },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      assert.equal(response.statusCode, 400, response.body);
      const answer = response.json<{ error: string; param: string }>();
      assert.deepEqual([answer.error, answer.param], ['invalid_request_error', param]);
      assert.doesNotMatch(response.body, new RegExp(SECRET));
    });
  }

  it('says what is wrong in plain words, one style: required, expected a type, unknown field, expected one of', async () => {
    const refusal = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const response = await api.inject({
        method,
        url,
        headers: { 'x-api-key': TEST_INTAKE_KEY },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      assert.equal(response.statusCode, 400, response.body);
      const { param, message } = response.json<{ param: string; message: string }>();
      return [param, message];
    };
    const { lastName: _lastName, ...nameless } = patient;
    const noLastName = v2Intake({ patient: nameless });
    assert.deepEqual(await refusal('POST', '/verifications', noLastName), ['patient.lastName', 'required']);
    assert.deepEqual(await refusal('POST', '/verifications', v2Intake({ payerId: 7 })), [
      'payerId',
      'expected a string',
    ]);
    for (const [url, payload, param] of [
      ['/verifications', v2Intake({ foo: SECRET }), 'foo'],
      ['/verifications', v2Intake({ patient: { ...patient, memberID: SECRET } }), 'patient.memberID'],
      ['/verifications/search', { memberId: 'M1', extra: SECRET }, 'extra'],
    ] as const) {
      assert.deepEqual(await refusal('POST', url, payload), [param, 'unknown field']);
    }
    const badKey = await api.inject({
      method: 'POST',
      url: runInput,
      headers: { 'x-api-key': TEST_INTAKE_KEY, 'idempotency-key': 'two words' },
      payload: { input: {} },
    });
    assert.deepEqual(
      [badKey.statusCode, badKey.json<{ param: string }>().param, badKey.json<{ message: string }>().message],
      [400, 'idempotency-key', 'expected 1 to 200 printable ASCII characters'],
    );
    const [param, message] = await refusal('GET', '/verifications?stage=bogus');
    assert.equal(param, 'stage');
    assert.match(message!, /^expected one of: [a-z-]+(, [a-z-]+)+$/);
    const batch = await api.inject({
      method: 'POST',
      url: '/batches',
      headers: { 'x-api-key': TEST_INTAKE_KEY },
      payload: { items: [noLastName, v2Intake({ patient: { ...patient, memberID: SECRET } })] },
    });
    const rows = batch.json<{ invalid: { row: number; param: string; message: string }[] }>().invalid;
    assert.deepEqual(
      rows.map((row) => [row.row, row.param, row.message]),
      [
        [1, 'patient.lastName', 'required'],
        [2, 'patient.memberID', 'unknown field'],
      ],
    );
    assert.doesNotMatch(batch.body, /Invalid input|Unrecognized key|received/);
  });

  it('answers an unknown path 404, whatever its query string', async () => {
    const response = await api.inject({ url: '/verification?stage=failed', headers: { 'x-api-key': TEST_INTAKE_KEY } });
    assert.equal(response.statusCode, 404);
  });

  it('refuses a batch item with an unknown field as an invalid row naming it, never its value', async () => {
    const response = await api.inject({
      method: 'POST',
      url: '/batches',
      headers: { 'x-api-key': TEST_INTAKE_KEY },
      payload: { items: [v2Intake({ patient: { ...patient, memberID: SECRET } })] },
    });
    assert.equal(response.statusCode, 400, response.body);
    const answer = response.json<{ invalid: { row: number; param: string }[] }>();
    assert.deepEqual(
      answer.invalid.map((row) => [row.row, row.param]),
      [[1, 'patient.memberID']],
    );
    assert.doesNotMatch(response.body, new RegExp(SECRET));
  });

  for (const [what, payload, message] of [
    ['an empty body', '', 'the body is empty; send a JSON value'],
    ['text that is not JSON', `{"input": ${SECRET}`, 'the body is not valid JSON'],
    ['a __proto__ key', `{"input": {}, "__proto__": {"x": "${SECRET}"}}`, PROTOTYPE_KEY],
    ['a nested __proto__ key', `{"input": {"a": [{"__proto__": "${SECRET}"}]}}`, PROTOTYPE_KEY],
    ['a constructor.prototype key', `{"input": {"constructor": {"prototype": "${SECRET}"}}}`, PROTOTYPE_KEY],
  ] as const) {
    it(`refuses a JSON body with ${what} as such (400, never quoting it)`, async () => {
      const response = await api.inject({
        method: 'POST',
        url: runInput,
        headers: { 'x-api-key': TEST_INTAKE_KEY, 'content-type': 'application/json' },
        payload,
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json(), { error: 'invalid_request_error', param: 'body', message });
    });
  }

  it('refuses an event endpoint URL that is no address by name, before any rule parses it (no 500)', () => {
    for (const url of ['', 'not a url', 'ftp://files.example.com']) {
      for (const parsed of [
        EndpointCreateRequest.safeParse({ url, events: ['batch.settled'] }),
        EndpointUpdateRequest.safeParse({ url }),
      ]) {
        assert.equal(parsed.success, false);
        assert.deepEqual(
          parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message]),
          [['url', 'expected an http or https address']],
        );
      }
    }
    const withCredentials = EndpointUpdateRequest.safeParse({ url: 'https://user:pw@ehr.example.com/hooks' });
    assert.equal(withCredentials.error?.issues[0]?.message, 'an endpoint URL carries no user or password');
    assert.equal(EndpointUpdateRequest.safeParse({ url: 'https://ehr.example.com/hooks' }).success, true);
  });

  for (const [mediaType, payload] of [
    ['text/plain', JSON.stringify({ input: {} })],
    ['application/x-www-form-urlencoded', 'input=1'],
    ['application/xml', '<input/>'],
  ] as const) {
    it(`answers a ${mediaType} body 415 on every route that takes a body`, async () => {
      for (const url of BODY_ROUTES) {
        const response = await api.inject({
          method: 'POST',
          url,
          headers: { 'x-api-key': TEST_INTAKE_KEY, 'content-type': mediaType },
          payload,
        });
        assert.deepEqual(
          [url, response.statusCode, response.json<{ error: string }>().error],
          [url, 415, 'unsupported_media_type'],
        );
      }
    });
  }
});
