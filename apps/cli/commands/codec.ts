import type { Command } from 'commander';
import { CliError, positiveInt, untilInterrupted, withStore, type CliContext } from '../context.js';
import { auditTrail } from '../audit-record.js';

export function registerCodec(program: Command, ctx: CliContext): void {
  program
    .command('codec-server')
    .description('serve /encode and /decode so Temporal UI and the temporal CLI show decrypted payloads to a person')
    .addHelpText(
      'after',
      `
Listens on CODEC_SERVER_HOST:CODEC_SERVER_PORT (default 127.0.0.1:8888) with the keys of CODEC_KEYS, for browsers of
CODEC_UI_ORIGINS only. It decodes for a person with a pass (the console's "Temporal UI" page, or
\`eligibility codec-pass\`), signed with CODEC_TOKEN_SECRET, and only the workflows of their tenants; every decode is
in the audit trail of DATABASE_URL. It describes workflows for their tenant at TEMPORAL_ADDRESS.

Examples:
  $ CODEC_TOKEN_SECRET=… DATABASE_URL=… eligibility codec-server
  $ temporal workflow show -w <id> --codec-endpoint http://127.0.0.1:8888 --codec-auth "Bearer <pass>"`,
    )
    .action(async () => {
      const { startCodecServer } = await import('../../codec-server/run-codec-server.js');
      const signal = untilInterrupted();
      const config = ctx.config('codec-server');
      const { lazyClient } = await import('../../../src/temporal/client.js');
      // It only describes workflows: their search attributes are not encrypted, so no data converter is needed.
      const temporal = await lazyClient(config.temporal, { dataConverter: {} });
      try {
        await withStore(ctx, async (store) => {
          const server = await startCodecServer(config, { store, client: temporal.client });
          console.log(`Codec server on ${server.url} (a person's endpoint: ${server.url}/p/<pass>). Ctrl-C stops it.`);
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          await server.close();
        });
      } finally {
        await temporal.close();
      }
    });

  program
    .command('codec-pass')
    .description("mint an operator's pass to the codec server, for Temporal UI or the temporal CLI")
    .argument('<operator>', 'an operator of the directory (their role and tenants apply)')
    .option('--hours <n>', 'how long it is valid', positiveInt, 8)
    .option('--codec-url <url>', 'the codec server as the person reaches it', 'http://127.0.0.1:8888')
    .addHelpText(
      'after',
      `
Needs CODEC_TOKEN_SECRET (the codec server's) and DATABASE_URL. The pass is recorded in the audit trail. A viewer gets
none: Temporal UI cannot mask what it shows. Disabling the operator voids their passes at once.

Example:
  $ eligibility codec-pass ana --hours 4`,
    )
    .action(async (name: string, options: { hours: number; codecUrl: string }) => {
      const secret = ctx.config().codec.server.tokenSecret;
      if (!secret)
        throw new CliError('CODEC_TOKEN_SECRET is not set: it is the secret the codec server checks passes with');
      const { OperatorDirectory } = await import('../../../src/access/operators.js');
      const { mintCodecToken } = await import('../../../src/access/codec-tokens.js');
      const pass = await withStore(ctx, async (store) => {
        const operator = await new OperatorDirectory(store).find(name);
        if (!operator) throw new CliError(`no active operator ${name}`);
        if (operator.role === 'viewer') throw new CliError(`${name} is a viewer: viewers decode nothing`);
        await (
          await auditTrail(ctx, store)
        ).append({ actor: ctx.identity(), action: `codec.pass:${name}`, outcome: 'ok' });
        return mintCodecToken(secret, { ...operator, source: 'directory' }, options.hours * 3600);
      });
      const url = options.codecUrl.replace(/\/$/, '');
      console.log(`Temporal UI codec endpoint: ${url}/p/${pass}`);
      console.log(`temporal CLI: --codec-endpoint ${url} --codec-auth "Bearer ${pass}"`);
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
