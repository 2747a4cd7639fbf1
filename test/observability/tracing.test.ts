import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Client } from '@temporalio/client';
import { createActivities } from '../../activities/index.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { setUpTracing } from '../../src/tracing/tracing.js';
import { createWorker } from '../../workers/create-worker.js';
import { moduleIds, tracedWorkflowBundle, workflowBundle } from '../../testing/bundle.js';
import { testDataConverter } from '../../testing/codec.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';

interface ExportedSpan {
  name: string;
  traceId: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}
interface ExportRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: ExportedSpan[] }[];
  }[];
}

/** An OTLP/HTTP collector that keeps what it is sent (the exporter posts JSON to /v1/traces). */
async function startCollector(): Promise<{ url: string; received: ExportRequest[]; raw: string[]; server: Server }> {
  const received: ExportRequest[] = [];
  const raw: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        raw.push(body);
        received.push(JSON.parse(body) as ExportRequest);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, received, raw, server };
}

describe('OpenTelemetry tracing', function () {
  this.timeout(60_000);
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(async () => sandbox?.close());

  // Here, not with the other bundle checks: this suite builds the traced bundle anyway (a bundle is seconds of CPU).
  it("holds OpenTelemetry's interceptors only in the traced bundle: their setup at every workflow start is no cost of a worker that does not trace", async () => {
    const otel = (ids: string[]) =>
      ids.filter((id) => id.includes('node_modules/@temporalio/interceptors-opentelemetry/'));
    assert.deepEqual(otel(moduleIds((await workflowBundle()).code)), []);
    assert.ok(otel(moduleIds((await tracedWorkflowBundle()).code)).length > 0);
  });

  it('is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: no exporter, no client interceptor', async () => {
    const tracing = await setUpTracing(loadConfig('intake', {}).observability, 'intake');
    assert.equal(tracing.spanProcessor, undefined);
    assert.deepEqual(tracing.clientInterceptors, []);
  });

  it('exports one trace from the client start through the workflow to its activities, with no patient value', async () => {
    const collector = await startCollector();
    const config = loadConfig('worker', {
      OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`,
      OTEL_SERVICE_NAME: 'eligibility-test',
    });
    const tracing = await setUpTracing(config.observability, 'worker');
    const { nativeConnection, connection, server } = testTemporal();
    const taskQueue = `tracing-${randomUUID()}`;
    const service = loadConfig('worker', { ELIGIBILITY_BASE_URL: sandbox.url }).service;
    const worker = await createWorker({
      connection: nativeConnection,
      namespace: server.namespace,
      taskQueue,
      activities: createActivities(new EligibilityClient(service)),
      dataConverter: testDataConverter(),
      maxActivitiesPerSecond: 500,
      workflowBundle: await tracedWorkflowBundle(),
      tracing,
    });
    const client = new Client({
      connection,
      dataConverter: testDataConverter(),
      interceptors: { workflow: tracing.clientInterceptors },
    });
    const patient = {
      firstName: 'Tracey',
      lastName: 'Spanworth',
      dateOfBirth: '07/08/1977',
      state: 'NY',
      memberId: 'MTRACE991',
    };
    try {
      await worker.runUntil(async () => {
        const { workflowId } = await startVerification(
          client,
          { id: `tracing-${randomUUID()}`, patient, payerId: '60054', placeOfServiceCode: '11', specialtyCode: 'PRC' },
          { taskQueue, timing: { graceSeconds: 0.2 } },
        );
        await client.workflow.getHandle(workflowId).result();
      });
    } finally {
      await tracing.shutdown();
      collector.server.close();
    }

    const spans = collector.received.flatMap((r) =>
      r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)),
    );
    const names = new Set(spans.map((s) => s.name));
    for (const name of [
      'StartWorkflow:verificationWorkflow',
      'RunWorkflow:verificationWorkflow',
      'StartActivity:lookupPayer',
      'RunActivity:lookupPayer',
    ]) {
      assert.ok(names.has(name), `no span ${name} among ${[...names].join(', ')}`);
    }
    const traceOf = (name: string) => spans.find((s) => s.name === name)!.traceId;
    assert.equal(traceOf('RunActivity:lookupPayer'), traceOf('StartWorkflow:verificationWorkflow'), 'one trace');
    const services = collector.received.flatMap((r) =>
      r.resourceSpans.flatMap((rs) => rs.resource.attributes.filter((a) => a.key === 'service.name')),
    );
    assert.ok(services.every((a) => a.value.stringValue === 'eligibility-test'));
    const everything = collector.raw.join('');
    for (const value of Object.values(patient)) assert.ok(!everything.includes(value), `${value} in an exported span`);
  });
});
