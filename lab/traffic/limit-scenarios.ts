import { VerificationRequestV2 } from '../../src/contract/index.js';
import { engineCpuFigures, runEngine } from './engine-ceiling.js';
import { runNaivePeer } from './naive-peer.js';
import { followService, refusalsSettled, type ServiceTrace } from './measure.js';
import { runProject, trafficRequest, type ProjectRun } from './project-run.js';
import type { Figure, TrafficScenario } from './scenario.js';
import type { TrafficStack } from './stack.js';

const pct = (part: number, whole: number) => `${((100 * part) / Math.max(whole, 1)).toFixed(2)}%`;
const seconds = (ms: number | undefined) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)} s`);

/** Generous: a run that takes three times the ceiling's time (plus a minute) is reported as not finished. */
const maxMsFor = (count: number, rps: number) => ((count * 2) / rps) * 3000 + 60_000;

const perSecondOf = (count: number, trace: ServiceTrace) =>
  trace.doneMs === undefined ? trace.created / (trace.elapsedMs / 1000) : count / (trace.doneMs / 1000);

/**
 * Throughput against the lower of the limit's ceiling and the engine's own on this machine (the `engine` scenario,
 * when it ran first): how much of what this machine allows the project used.
 */
function machineFigure(scenario: string, rps: number, count: number, trace: ServiceTrace, engine: number): Figure {
  const attainable = Math.min(rps / 2, engine);
  const bound = attainable < rps / 2 ? `the engine's ${engine.toFixed(1)}` : `the limit's ${rps / 2}`;
  const perSecond = perSecondOf(count, trace);
  return {
    scenario,
    subject: 'project',
    name: 'throughput ÷ min(ceiling, engine ceiling)',
    value: `${(perSecond / attainable).toFixed(2)} (${perSecond.toFixed(1)} of ${bound} verifications/s)`,
  };
}

/** `perSecond` as a share of R ÷ 2, the ceiling of work that makes two calls: "0.95 (19.0 of 20 <unit>/s)". */
function shareOfCeiling(perSecond: number, rps: number, unit: string, unfinished: string): string {
  const ceiling = rps / 2;
  return `${(perSecond / ceiling).toFixed(2)} (${perSecond.toFixed(1)} of ${ceiling} ${unit}/s${unfinished})`;
}

function throughputFigures(
  scenario: string,
  subject: string,
  rps: number,
  count: number,
  trace: ServiceTrace,
): Figure[] {
  const perSecond = perSecondOf(count, trace);
  const unfinished = trace.doneMs === undefined ? `; stopped at ${trace.created} of ${count}` : '';
  return [
    {
      scenario,
      subject,
      name: 'throughput ÷ ceiling',
      value: shareOfCeiling(perSecond, rps, 'verifications', unfinished),
    },
    {
      scenario,
      subject,
      name: '429 share of calls',
      value: `${pct(trace.tooMany, trace.calls)} (${trace.tooMany} of ${trace.calls})`,
    },
  ];
}

function projectFigures(scenario: string, run: ProjectRun): Figure[] {
  const g = run.governor;
  return [
    {
      scenario,
      subject: 'project',
      name: 'worker CPU per verification',
      value: `${run.cpuMsPerVerification.toFixed(0)} ms`,
    },
    {
      scenario,
      subject: 'project',
      name: 'Temporal dev server CPU per verification',
      value: `${run.serverCpuMsPerVerification.toFixed(0)} ms`,
    },
    {
      scenario,
      subject: 'project',
      name: 'bench process (sandbox, client) CPU per verification',
      value: `${run.benchCpuMsPerVerification.toFixed(0)} ms`,
    },
    {
      scenario,
      subject: 'project',
      name: 'machine CPU busy',
      // Near every core busy, the machine (engine and worker together), not the service's limit, bounds the run.
      value: `${run.busyCores.toFixed(2)} of ${run.cores} cores`,
    },
    {
      scenario,
      subject: 'project',
      name: 'governor actions ÷ work actions',
      value: `${pct(run.governorActions, run.workActions)} (${run.governorActions} of ${run.workActions})`,
      target: '< 2%',
    },
    {
      scenario,
      subject: 'project',
      name: 'governor at the end',
      value: g
        ? `${g.rps} calls/s (${g.mode}; limited at ${g.limitedAtRps ?? '-'}; ${g.totals.raises} raises, ${g.totals.cuts} cuts)`
        : 'not running',
    },
  ];
}

async function naive(stack: TrafficStack, rps: number, count: number, onTick?: (created: number) => Promise<boolean>) {
  const t0 = performance.now();
  const [, trace] = await Promise.all([
    runNaivePeer(stack.service, count, (i) => VerificationRequestV2.parse(trafficRequest(`naive-${Date.now()}`, i))),
    followService(stack.sandbox, t0, count, maxMsFor(count, rps), { onTick }),
  ]);
  return trace;
}

/**
 * The engine's own figure at a known R: workflows of a verification's shape, no-op activities limited to R a second
 * by the task queue as the project's are, started at the project's pace (START_CONCURRENCY). What the engine's
 * dispatch reaches at R on this machine, so a shortfall of the project's can be told from one of the engine's.
 */
async function engineAt(
  stack: TrafficStack,
  scenario: string,
  rps: number,
  count: number,
  log: (line: string) => void,
): Promise<Figure[]> {
  log(`${scenario}: engine, ${count} workflows of a verification's shape limited to R`);
  const run = await runEngine(stack, { count, maxRps: rps, maxMs: maxMsFor(count, rps) });
  const unfinished = run.done < count ? `; stopped at ${run.done} of ${count}` : '';
  return [
    {
      scenario,
      subject: 'engine',
      name: 'throughput ÷ ceiling',
      value: shareOfCeiling(run.perSecond, rps, 'workflows', unfinished),
    },
    ...engineCpuFigures(scenario, run),
  ];
}

/** Throughput and 429s at a fixed R, the project told R (`known`) or not (`unknown`), beside the naive peer. */
function limitScenario(kind: 'known' | 'unknown', rps: number): TrafficScenario {
  const name = `${kind}-${rps}`;
  const target = kind === 'known' ? ['≥ 0.95', '≤ 0.5%'] : ['≥ 0.9', '≤ 1%'];
  return {
    name,
    description: `R = ${rps}/s, ${kind === 'known' ? 'ELIGIBILITY_MAX_RPS = R' : 'ELIGIBILITY_MAX_RPS unset'}`,
    async run(stack, { count, log }) {
      await stack.resetSandbox(rps);
      log(`${name}: project, ${count} verifications`);
      const run = await runProject(stack, {
        maxRps: kind === 'known' ? rps : undefined,
        count,
        maxMs: maxMsFor(count, rps),
      });
      const figures: Figure[] = throughputFigures(name, 'project', rps, count, run.trace).map((f, i) => ({
        ...f,
        target: target[i],
      }));
      if (stack.engineCeiling !== undefined) {
        figures.push(machineFigure(name, rps, count, run.trace, stack.engineCeiling));
      }
      if (process.argv.includes('--no-peer')) return [...figures, ...projectFigures(name, run)];
      await stack.resetSandbox(rps);
      log(`${name}: naive peer, ${count} verifications`);
      const peer = await naive(stack, rps, count);
      const engine = kind === 'known' ? await engineAt(stack, name, rps, count, log) : [];
      return [
        ...figures,
        ...projectFigures(name, run),
        ...throughputFigures(name, 'naive peer', rps, count, peer),
        ...engine,
      ];
    },
  };
}

/** A first batch's sizes on a new queue (`first-batch-40`): short, where the start dominates, and the usual run. */
const FIRST_BATCHES = [
  { count: 400, target: '≥ 0.9' },
  { count: 1000, target: '≥ 0.95' },
];

/**
 * A governor that has never seen the service, at an unknown R: each first batch on a task queue of its own, the
 * short and the usual run side by side (the start is paid once per queue, and dominates a short run). The project
 * only: the naive peer's figures at this R are `unknown-R`'s.
 */
function firstBatchScenario(rps: number): TrafficScenario {
  const name = `first-batch-${rps}`;
  return {
    name,
    description: `R = ${rps}/s, ELIGIBILITY_MAX_RPS unset: first batches of ${FIRST_BATCHES.map((b) => b.count).join(' and ')} on new queues (--count ignored)`,
    async run(stack, { log }) {
      const figures: Figure[] = [];
      for (const batch of FIRST_BATCHES) {
        await stack.resetSandbox(rps);
        log(`${name}: project, a first batch of ${batch.count} on a new queue`);
        const run = await runProject(stack, {
          maxRps: undefined,
          count: batch.count,
          maxMs: maxMsFor(batch.count, rps),
        });
        const subject = `project, ${batch.count}`;
        const [throughput, refused] = throughputFigures(name, subject, rps, batch.count, run.trace);
        figures.push(
          { ...throughput!, target: batch.target },
          { ...refused!, target: '≤ 1%' },
          // With `engine` run first: whether this machine, not the limit, bound the run.
          ...(stack.engineCeiling === undefined
            ? []
            : [{ ...machineFigure(name, rps, batch.count, run.trace, stack.engineCeiling), subject }]),
          ...projectFigures(name, run)
            .filter((f) => f.name === 'governor at the end' || f.name === 'machine CPU busy')
            .map((f) => ({ ...f, subject })),
        );
      }
      return figures;
    },
  };
}

/** 429s stop when this long passes without one; later ones are the governor probing the new limit. */
const SETTLED_QUIET_MS = 10_000;

/** R halved once a third of the verifications are created: how long until the service's 429s stop. */
function halvedScenario(rps: number): TrafficScenario {
  const name = `halved-${rps}`;
  return {
    name,
    description: `R = ${rps}/s halved to ${rps / 2}/s mid-run, ELIGIBILITY_MAX_RPS unset`,
    async run(stack, { count, log }) {
      const halve = async (created: number) => {
        if (created < count / 3) return false;
        await stack.sandbox.setRateLimit({ ratePerSecond: rps / 2, burst: Math.round(rps / 2) });
        log(`${name}: R halved after ${created} verifications`);
        return true;
      };
      const stopFigures = (subject: string, trace: ServiceTrace): Figure[] => {
        const settled = refusalsSettled(trace, SETTLED_QUIET_MS);
        return [
          {
            scenario: name,
            subject,
            name: `429s stopped after R halved (then ${SETTLED_QUIET_MS / 1000} s without)`,
            value: settled ? seconds(settled.settledMs) : '-',
            ...(subject === 'project' ? { target: '≤ 30 s' } : {}),
          },
          {
            scenario: name,
            subject,
            name: '429s after that (probes of the limit)',
            value: settled ? `${settled.later} in ${settled.laterBunches} bunch(es)` : '-',
          },
          {
            scenario: name,
            subject,
            name: 'last 429 after R halved',
            value:
              trace.last429Ms === undefined || !trace.after
                ? 'none after'
                : seconds(trace.last429Ms - trace.after.atMs),
          },
          {
            scenario: name,
            subject,
            name: '429 share after R halved',
            value: trace.after
              ? `${pct(trace.after.tooMany, trace.after.calls)} (${trace.after.tooMany} of ${trace.after.calls})`
              : '-',
          },
        ];
      };
      await stack.resetSandbox(rps);
      log(`${name}: project, ${count} verifications`);
      const run = await runProject(stack, { maxRps: undefined, count, maxMs: maxMsFor(count, rps / 2), onTick: halve });
      const figures = stopFigures('project', run.trace);
      await stack.resetSandbox(rps);
      log(`${name}: naive peer, ${count} verifications`);
      const peer = await naive(stack, rps, count, halve);
      return [...figures, ...projectFigures(name, run), ...stopFigures('naive peer', peer)];
    },
  };
}

export const limitScenarios: TrafficScenario[] = [
  limitScenario('known', 10),
  limitScenario('known', 40),
  limitScenario('known', 200),
  limitScenario('unknown', 5),
  limitScenario('unknown', 40),
  limitScenario('unknown', 200),
  firstBatchScenario(40),
  halvedScenario(40),
];
