import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { createConsole } from '../../apps/console/server.js';
import { OWNED } from '../../apps/console/route-rules.js';
import { OPERATOR_ROLES } from '../../src/access/operators.js';
import { operatorEntry } from '../../src/access/operator-passwords.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { walkRoutes } from '../access/route-walk.js';

/** A console over a Temporal server it never calls: its routes only, every optional page included (OIDC). */
async function consoleApp() {
  const config = loadConfig('console', {
    LOG_LEVEL: 'silent',
    CONSOLE_OPERATORS: await operatorEntry('alice', randomBytes(12).toString('base64url')),
    CONSOLE_SESSION_SECRET: randomBytes(32).toString('hex'),
    OIDC_ISSUER: 'https://idp.example',
    OIDC_CLIENT_ID: 'console',
  });
  const connection = Connection.lazy({ address: '127.0.0.1:1' });
  const app = createConsole({ config, client: new Client({ connection }), logger: createLogger(config) });
  return { app, close: () => Promise.all([app.close(), connection.close()]) };
}

/**
 * Every route of the console declares the role it needs, the object it owns and its audit action (decision 75): a
 * page added without them cannot slip past its tenant check or its audit entry.
 */
describe('console: every route declares its access, what it owns and what it audits', () => {
  it('walks every registered route and finds each declared', async () => {
    const { app, close } = await consoleApp();
    try {
      await app.ready();
      walkRoutes(app, {
        knows: (access) => 'role' in access && OPERATOR_ROLES.includes(access.role),
        owned: OWNED,
        ownerOf: { workflowId: 'workflow', batchId: 'batch', patientId: 'patient', changeId: 'coverage-change' },
        open: [
          'GET /healthz',
          'GET /readyz',
          'GET /metrics',
          'GET /assets/*',
          'GET /favicon.ico',
          'GET /sign-in',
          'POST /sign-in',
          'GET /sign-in/oidc',
          'GET /sign-in/oidc/callback',
        ],
      });
    } finally {
      await close();
    }
  });

  it('refuses to start with a route that declares none of them, naming it', async () => {
    const { app, close } = await consoleApp();
    try {
      assert.throws(
        () => app.get('/undeclared', (_request, reply) => reply.send('')),
        /route GET \/undeclared declares no access/,
      );
    } finally {
      await close();
    }
  });
});
