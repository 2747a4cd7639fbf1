import type { FastifyInstance } from 'fastify';
import {
  FaultUpdate,
  RateLimitUpdate,
  SandboxDiscoveryCompleteRequest,
  SandboxCoverageChange,
  SandboxDiscoveryRequest,
  type SandboxRun,
} from '../../src/contract/index.js';
import type { SandboxContext } from '../context.js';
import { invalidRequest, notFound, parse } from '../replies.js';
import type { VerificationRecord } from '../state.js';

/**
 * The sandbox's own endpoints, outside the service's paths: no token, no rate limit, no faults, not counted in stats.
 */
export function sandboxControlRoutes(app: FastifyInstance, ctx: SandboxContext, reset: () => void): void {
  app.get('/sandbox/stats', () => ctx.stats.snapshot());

  app.get('/sandbox/faults', () => ctx.faults.settings);

  app.post('/sandbox/faults', (request, reply) => {
    const body = parse(FaultUpdate, request.body ?? {});
    if (!body.ok) return invalidRequest(reply, body.param);
    return reply.send(ctx.faults.update(body.data));
  });

  app.get('/sandbox/rate-limit', () => ctx.limiter.settings);

  // R moved mid-run: what a real service does when its operator changes a quota, so the governor's reaction is testable.
  app.post('/sandbox/rate-limit', (request, reply) => {
    const body = parse(RateLimitUpdate, request.body ?? {});
    if (!body.ok) return invalidRequest(reply, body.param);
    return reply.send(ctx.limiter.update(body.data));
  });

  // Everything back to the start: seed data, faults from configuration, zero stats; issued tokens are cleared too.
  app.post('/sandbox/reset', (_request, reply) => {
    reset();
    return reply.code(204).send();
  });

  app.post('/sandbox/tokens/revoke', () => ({ revoked: ctx.tokens.revokeAll() }));

  app.get<{ Querystring: { verificationId?: string } }>('/sandbox/runs', (request) => {
    const { verificationId } = request.query;
    const runs: SandboxRun[] = [];
    for (const run of ctx.state.runs.values()) {
      if (verificationId !== undefined && run.verificationId !== verificationId) continue;
      runs.push({
        flowRunId: run.flowRunId,
        status: run.status,
        verificationId: run.verificationId,
        ...(run.id === undefined ? {} : { id: run.id }),
      });
    }
    return runs;
  });

  // Every verification created, so a fault suite can count them per caller id: duplicates show as two records.
  app.get<{ Querystring: { id?: string } }>('/sandbox/verifications', (request) => {
    const { id } = request.query;
    const records: VerificationRecord[] = [];
    for (const record of ctx.state.verifications.values()) {
      if (id === undefined || record.id === id) records.push(record);
    }
    return records;
  });

  // A patient's coverage changed between checks (issue 35): named in the body, never in the URL.
  app.post('/sandbox/coverage', (request, reply) => {
    const body = parse(SandboxCoverageChange, request.body);
    if (!body.ok) return invalidRequest(reply, body.param);
    if (body.data.change === 'move-payer' && !ctx.state.findPayer(body.data.payerId ?? '')) {
      return invalidRequest(reply, 'payerId');
    }
    return reply.send(ctx.state.coverage.apply(body.data));
  });

  app.post('/sandbox/discoveries', (request, reply) => {
    const body = parse(SandboxDiscoveryRequest, request.body);
    if (!body.ok) return invalidRequest(reply, body.param);
    if (body.data.payerId !== undefined && !ctx.state.findPayer(body.data.payerId)) {
      return invalidRequest(reply, 'payerId');
    }
    return reply.code(201).send(ctx.discoveries.create(body.data));
  });

  app.post<{ Params: { discoveryId: string } }>('/sandbox/discoveries/:discoveryId/complete', (request, reply) => {
    const existing = ctx.state.discoveries.get(request.params.discoveryId);
    if (!existing) return notFound(reply);
    const body = parse(SandboxDiscoveryCompleteRequest, request.body ?? {});
    if (!body.ok) return invalidRequest(reply, body.param);
    const completed = ctx.discoveries.complete(existing.discoveryId, body.data.successful);
    return completed ? reply.send(completed) : invalidRequest(reply, 'discoveryId');
  });
}
