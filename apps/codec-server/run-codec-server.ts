import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { EncryptionCodec } from '../../src/codec/encryption-codec.js';
import { CodecKeyError, loadCodecKeys } from '../../src/codec/keys.js';
import { createCodecServer } from './server.js';

export interface RunningCodecServer {
  url: string;
  /** The endpoint to give Temporal UI (`--ui-codec-endpoint`): the token is in its path, since the UI sends no header. */
  uiEndpoint: string;
  close(): Promise<void>;
}

/** Serves /encode and /decode with the configured keys; needs CODEC_SERVER_TOKEN (the message names it). */
export async function startCodecServer(config: Config, token = config.codec.server.token): Promise<RunningCodecServer> {
  if (!token) throw new CodecKeyError('CODEC_SERVER_TOKEN is not set: the codec server never decodes for anyone');
  const { server } = config.codec;
  const app = createCodecServer({
    codec: new EncryptionCodec(await loadCodecKeys(config.codec)),
    token,
    origins: server.origins,
    namespace: server.namespace,
    logger: createLogger(config, 'codec-server'),
  });
  const url = (await app.listen({ host: server.host, port: server.port })).replace(/\/$/, '');
  return { url, uiEndpoint: `${url}/t/${token}`, close: () => app.close() };
}
