import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';

describe('the logger', () => {
  it('redacts patient fields wherever they appear in a logged object', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger(loadConfig({ LOG_LEVEL: 'info' }), 'test', sink);
    logger.info(
      {
        workflowId: 'verification-abc',
        firstName: 'Secretworth',
        request: { patient: { lastName: 'Phionella', dateOfBirth: '04/05/1967' }, memberId: 'MBRPHI778899' },
        deep: { a: { address: '1 Hidden Lane' } },
        headers: { authorization: 'Bearer s3cr3t-token' },
      },
      'started',
    );
    const out = lines.join('');
    for (const value of ['Secretworth', 'Phionella', '04/05/1967', 'MBRPHI778899', '1 Hidden Lane', 's3cr3t-token']) {
      assert.ok(!out.includes(value), `${value} was logged`);
    }
    assert.match(out, /verification-abc/, 'identifiers are kept');
    assert.match(out, /\[redacted\]/);
  });
});
