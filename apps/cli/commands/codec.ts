import type { Command } from 'commander';
import { untilInterrupted, type CliContext } from '../context.js';

export function registerCodec(program: Command, ctx: CliContext): void {
  program
    .command('codec-server')
    .description('serve /encode and /decode so Temporal UI and the temporal CLI show decrypted payloads')
    .addHelpText(
      'after',
      `
Listens on CODEC_SERVER_HOST:CODEC_SERVER_PORT (default 127.0.0.1:8888) with the keys of CODEC_KEYS. Every call needs
CODEC_SERVER_TOKEN, as "Authorization: Bearer <token>" or in the endpoint path; browsers only from CODEC_UI_ORIGINS.

Examples:
  $ CODEC_SERVER_TOKEN=… eligibility codec-server
  $ temporal server start-dev --ui-codec-endpoint http://127.0.0.1:8888/t/<token>
  $ temporal workflow show -w <id> --codec-endpoint http://127.0.0.1:8888 --codec-auth "Bearer <token>"`,
    )
    .action(async () => {
      const { startCodecServer } = await import('../../codec-server/run-codec-server.js');
      const signal = untilInterrupted();
      const server = await startCodecServer(ctx.config());
      console.log(`Codec server on ${server.url} (Temporal UI endpoint: ${server.url}/t/<token>). Ctrl-C stops it.`);
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      await server.close();
    });

  program
    .command('codec-key')
    .description('print a new payload encryption key, as CODEC_KEYS takes it')
    .argument('[id]', 'the key id (default: k<date>)')
    .addHelpText(
      'after',
      `
To rotate: put the new key first in CODEC_KEYS (or set CODEC_CURRENT_KEY_ID to it) and keep the old ones listed, so
workflows that started under them still decrypt.

Example:
  $ eligibility codec-key k2026b   # k2026b:…base64…`,
    )
    .action(async (id?: string) => {
      const { generateKey } = await import('../../../src/codec/keys.js');
      console.log(generateKey(id));
    });
}
