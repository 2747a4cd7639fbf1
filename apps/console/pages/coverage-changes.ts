import type { FastifyInstance } from 'fastify';
import { markChangeSeen, unseenChanges } from '../../../src/patients/coverage-changes.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { operatorOf } from '../session.js';
import { html } from '../views/html.js';
import { hiddenCsrf } from '../views/layout.js';
import { changeKinds } from '../views/patient-record.js';
import { verificationLink } from '../views/links.js';

/**
 * The Changes worklist (issue 35): coverage changes of the operator's tenants nobody has marked seen, newest first,
 * each linked to its patient and the verification that found it. Identifiers and kinds only: no patient value.
 */
export function coverageChangePages(app: FastifyInstance, deps: ConsoleDeps): void {
  const list = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'identifiers and kinds of change, no patient value' },
  } as const;
  app.get('/changes', { config: list }, async (request, reply) => {
    const changes = await withDeadline(deps, () => unseenChanges(deps.client, operatorOf(request).tenants));
    return sendPage(request, reply, { title: 'Coverage changes', section: '/changes' }, (csrf) =>
      changes.length === 0
        ? html`<p>No coverage change waits to be seen.</p>`
        : html`<table>
            <thead>
              <tr>
                <th>When</th>
                <th>Change</th>
                <th>Patient</th>
                <th>Verification</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${changes.map(
                (c) =>
                  html`<tr>
                    <td>${new Date(c.at).toISOString()}</td>
                    <td>${changeKinds(c)}</td>
                    <td><a href="/patients/${c.patientId}">${c.patientId}</a></td>
                    <td>${verificationLink(c.workflowId)}</td>
                    <td>
                      <form method="post" action="/changes/${c.changeId}/seen">
                        ${hiddenCsrf(csrf)}<button type="submit">Mark seen</button>
                      </form>
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`,
    );
  });

  app.post<{ Params: { changeId: string } }>(
    '/changes/:changeId/seen',
    {
      preHandler: requireCsrf(app),
      config: {
        access: { role: 'operator', to: 'mark changes seen' },
        owns: 'coverage-change',
        audit: 'coverage-change.seen',
      },
    },
    async (request, reply) => {
      await withDeadline(deps, () => markChangeSeen(deps.client, request.params.changeId));
      await audited(deps.audit, request);
      return reply.redirect('/changes', 303);
    },
  );
}
