import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
// The project's metrics are defined when their module loads: the registry then holds every one of them.
import '../../src/metrics/project-metrics.js';
import { registry } from '../../src/metrics/registry.js';
import { environmentOf, readComposeFile, readText, type Service } from './compose-file.js';

interface ScrapeConfig {
  job_name: string;
  static_configs?: { targets: string[] }[];
  dns_sd_configs?: { names: string[]; port: number }[];
}
interface Panel {
  title: string;
  targets: { expr: string }[];
}

/** The port each role's /metrics is served on, as that service's own environment configures it. */
function metricsPort(role: string, env: Record<string, string>): number {
  const config = loadConfig('dev', env);
  const ports: Record<string, number> = {
    worker: config.worker.http.port,
    receiver: config.webhook.port,
    intake: config.intake.port,
    'codec-server': config.codec.server.port,
  };
  assert.ok(role in ports, `no /metrics port known for role ${role}`);
  return ports[role]!;
}

describe('docker-compose.yml: the observability profile (deploy/observability)', () => {
  let services: Record<string, Service>;
  let scrapes: ScrapeConfig[];
  let panels: Panel[];

  before(async () => {
    services = (await readComposeFile()).services as Record<string, Service>;
    scrapes = (parse(await readText('deploy/observability/prometheus.yml')) as { scrape_configs: ScrapeConfig[] })
      .scrape_configs;
    panels = (
      JSON.parse(await readText('deploy/observability/grafana/dashboards/eligibility.json')) as { panels: Panel[] }
    ).panels;
  });

  it('has Prometheus scrape every role of the image that keeps running (sandbox aside) at its /metrics port', () => {
    const targets = new Set(
      scrapes.flatMap((s) => [
        ...(s.static_configs ?? []).flatMap((c) => c.targets),
        ...(s.dns_sd_configs ?? []).flatMap((c) => c.names.map((n) => `${n}:${c.port}`)),
      ]),
    );
    // A one-shot job (temporal-setup: `eligibility setup`, then it exits) serves nothing to scrape.
    const roles = Object.entries(services).filter(
      ([, s]) => s.build !== undefined && s.profiles === undefined && s.restart !== 'no',
    );
    assert.ok(roles.length >= 4);
    for (const [name, service] of roles) {
      const role = Array.isArray(service.command) ? service.command[0]! : String(service.command);
      // The file as written: only literal values are configuration here (`${…}` ones come from .env).
      const literal = Object.entries(environmentOf(service)).filter(([, v]) => !v.includes('${'));
      const port = metricsPort(role, Object.fromEntries(literal));
      assert.ok(targets.has(`${name}:${port}`), `${name} (${role}) is not scraped at ${name}:${port}`);
      // Docker's health check asks the same process whether it is ready (Temporal reachable).
      assert.match(JSON.stringify(service.healthcheck), new RegExp(`127\\.0\\.0\\.1:${port}/readyz`), name);
    }
    assert.equal(environmentOf(services.worker!).WORKER_HTTP_HOST, '0.0.0.0', "Prometheus reaches the worker's port");
  });

  it('provisions Grafana with the Prometheus service as data source, and pins both images', async () => {
    const datasources = parse(
      await readText('deploy/observability/grafana/provisioning/datasources/prometheus.yml'),
    ) as {
      datasources: { url: string; uid: string }[];
    };
    assert.deepEqual(
      datasources.datasources.map((d) => d.url),
      ['http://prometheus:9090'],
    );
    for (const name of ['prometheus', 'grafana']) assert.match(services[name]!.image ?? '', /:v?\d+\.\d+\.\d+$/);
  });

  it("has a dashboard that shows every one of the project's metrics, and only metrics that exist", () => {
    const exprs = panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n');
    const own = registry
      .getMetricsAsArray()
      .map((m) => m.name)
      .filter((n) => n.startsWith('eligibility_'));
    const used = new Set([...exprs.matchAll(/\beligibility_\w+/g)].map(([n]) => n.replace(/_(bucket|sum|count)$/, '')));
    assert.deepEqual(
      own.filter((n) => !used.has(n) && n !== 'eligibility_http_request_duration_seconds'),
      [],
      'a project metric no panel shows',
    );
    assert.deepEqual(
      [...used].filter((n) => !own.includes(n)),
      [],
      'a panel queries a metric the project does not define',
    );
    assert.match(exprs, /temporal_workflow_task_schedule_to_start_latency_bucket/, "the SDK's metrics are shown too");
  });
});
