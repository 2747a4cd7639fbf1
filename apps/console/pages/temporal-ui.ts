import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mintCodecToken, type PersonSource } from '../../../src/access/codec-tokens.js';
import type { OperatorDirectory } from '../../../src/access/operators.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { sendPage, type ConsoleDeps } from '../deps.js';
import { operatorOf, type OperatorSource } from '../session.js';
import { passView, temporalUiView } from '../views/temporal-ui.js';

/** What the console needs to give people passes to the codec server (CODEC_TOKEN_SECRET, its public address). */
export interface CodecPasses {
  secret: string;
  codecUrl: string;
  hours: number;
}

const SOURCES: Record<OperatorSource, PersonSource> = { directory: 'directory', operators: 'config', oidc: 'oidc' };

/** Where the person came from, as the codec server checks their pass: the directory whenever it has an entry for them. */
async function sourceOf(request: FastifyRequest, directory: OperatorDirectory | undefined): Promise<PersonSource> {
  if (await directory?.entry(operatorOf(request).name)) return 'directory';
  return SOURCES[request.session.operatorFrom ?? 'operators'];
}

/**
 * Temporal UI: a person's own pass to the codec server (docs/operating/console.md), so Temporal UI and the Temporal CLI
 * show them decrypted payloads of their tenants' workflows, in their name. Minting one is an audit entry; a viewer gets
 * none.
 */
export function temporalUiPages(
  app: FastifyInstance,
  deps: ConsoleDeps,
  passes: CodecPasses | undefined,
  directory: OperatorDirectory | undefined,
): void {
  const frame = { title: 'Temporal UI', section: '/temporal-ui' } as const;
  const page = { access: { role: 'viewer' }, owns: 'none', audit: { none: 'how to open Temporal UI' } } as const;
  app.get('/temporal-ui', { config: page }, (request, reply) =>
    sendPage(request, reply, frame, (csrf) =>
      temporalUiView({ csrf, role: operatorOf(request).role, configured: !!passes, uiUrl: deps.temporalUiUrl }),
    ),
  );

  // A viewer is answered with the page that says passes are not for them (Temporal UI cannot mask what it shows).
  const pass = { access: { role: 'viewer' }, owns: 'none', audit: 'codec.pass' } as const;
  app.post('/temporal-ui/pass', { preHandler: requireCsrf(app), config: pass }, async (request, reply) => {
    const operator = operatorOf(request);
    if (!passes || operator.role === 'viewer') {
      return sendPage(
        request,
        reply,
        frame,
        (csrf) => temporalUiView({ csrf, role: operator.role, configured: !!passes, uiUrl: deps.temporalUiUrl }),
        403,
      );
    }
    const pass = await mintCodecToken(
      passes.secret,
      { ...operator, source: await sourceOf(request, directory) },
      passes.hours * 3600,
    );
    await audited(deps.audit, request);
    return sendPage(request, reply, frame, () =>
      passView({ codecUrl: passes.codecUrl, pass, hours: passes.hours, uiUrl: deps.temporalUiUrl }),
    );
  });
}
