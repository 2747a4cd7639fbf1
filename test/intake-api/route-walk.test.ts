import assert from 'node:assert/strict';
import { isScope } from '../../src/access/scopes.js';
import { OWNED } from '../../apps/intake-api/route-rules.js';
import { unreachableIntakeApi } from '../../testing/unreachable-intake-api.js';
import { walkRoutes } from '../access/route-walk.js';

/**
 * Every route of the intake API declares its scope, the object it owns and its audit action (decision 75): a route
 * added without them cannot slip past its tenant check or its audit entry.
 */
describe('intake API: every route declares its access, what it owns and what it audits', () => {
  it('walks every registered route and finds each declared', async () => {
    const { api, close } = unreachableIntakeApi();
    try {
      await api.ready();
      walkRoutes(api, {
        knows: (access) => 'scope' in access && isScope(access.scope),
        owned: OWNED,
        ownerOf: {
          workflowId: 'workflow',
          batchId: 'batch',
          patientId: 'patient',
          appointmentId: 'appointment',
          changeId: 'coverage-change',
          endpointId: 'endpoint',
        },
        open: [
          'GET /healthz',
          'GET /readyz',
          'GET /metrics',
          'GET /docs/openapi.json',
          'GET /docs',
          'GET /docs/static/index.html',
          'GET /docs/static/swagger-initializer.js',
          'GET /docs/json',
          'GET /docs/yaml',
          'GET /docs/static/*',
        ],
      });
    } finally {
      await close();
    }
  });

  it('refuses to start with a route that declares none of them, naming it', async () => {
    const { api, close } = unreachableIntakeApi();
    try {
      assert.throws(
        () => api.get('/undeclared', (_request, reply) => reply.send({})),
        /route GET \/undeclared declares no access/,
      );
    } finally {
      await close();
    }
  });
});
