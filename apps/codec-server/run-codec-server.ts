import type { Client } from '@temporalio/client';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadAuditSigning } from '../../src/audit/signing.js';
import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { EncryptionCodec } from '../../src/codec/encryption-codec.js';
import { CodecKeyError, loadCodecKeys } from '../../src/codec/keys.js';
import type { Store } from '../../src/store/database.js';
import { personFinder } from './people.js';
import { createCodecServer } from './server.js';
import { tenantFinder } from './tenant-cache.js';

export interface RunningCodecServer {
  url: string;
  close(): Promise<void>;
}

export interface CodecServerParts {
  /** The operators (a listed person is looked up on every decode) and the audit trail. */
  store: Store;
  /** Describes workflows for their tenant; a lazily connected one is fine. */
  client: Client;
}

/** Serves /encode and /decode with the configured keys; needs CODEC_TOKEN_SECRET, which signs people's passes. */
export async function startCodecServer(
  config: Config,
  parts: CodecServerParts,
  secret = config.codec.server.tokenSecret,
): Promise<RunningCodecServer> {
  if (!secret) throw new CodecKeyError('CODEC_TOKEN_SECRET is not set: the codec server never decodes for anyone');
  const { server } = config.codec;
  const trail = new AuditTrail(parts.store, await loadAuditSigning(config));
  const app = createCodecServer({
    codec: new EncryptionCodec(await loadCodecKeys(config.codec)),
    findPerson: personFinder(secret, new OperatorDirectory(parts.store)),
    tenantOf: tenantFinder(parts.client),
    audit: async (event) => {
      await trail.append(event);
    },
    origins: server.origins,
    namespace: server.namespace,
    logger: createLogger(config, 'codec-server'),
  });
  const url = (await app.listen({ host: server.host, port: server.port })).replace(/\/$/, '');
  return { url, close: () => app.close() };
}
