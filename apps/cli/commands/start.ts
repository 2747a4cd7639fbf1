import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { flatToRequest, type FlatColumn, type FlatRequest } from '../../../src/intake-files/flat-request.js';
import { SANDBOX_DISCOVERY, resolveSandboxDiscovery } from '../../../src/intake-files/sandbox-discovery.js';
import { validateIntake } from '../../../src/contract/index.js';
import { TenantSchema } from '../../../src/temporal/tenant.js';
import { statusFields } from '../../../src/audit/patient-fields.js';
import { MAX_WAIT_SECONDS } from '../../../src/temporal/await-settled.js';
import { fields } from '../../../src/text-format.js';
import { recordAccess } from '../audit-record.js';
import { statusRows } from './status.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';
import { parsedWith } from '../option-parsers.js';

/** Flag -> flat column; the same mapping as a CSV row, so a flag and a column can never mean different things. */
const FLAGS: readonly (readonly [flag: string, column: FlatColumn, description: string])[] = [
  ['--id <id>', 'id', "the caller's id (at most 45 characters): the same id never starts a second verification"],
  ['--payer-id <id>', 'payerId', 'payer id (or alias), when known'],
  ['--first-name <name>', 'firstName', "patient's first name (v2)"],
  ['--last-name <name>', 'lastName', "patient's last name (v2)"],
  ['--dob <date>', 'dateOfBirth', "patient's date of birth (v2): YYYY-MM-DD or MM/DD/YYYY"],
  ['--state <XX>', 'state', "patient's two-letter state (v2)"],
  ['--member-id <id>', 'memberId', 'member id, when known'],
  ['--place-of-service <code>', 'placeOfServiceCode', 'two-digit place of service code'],
  ['--specialty <code>', 'specialtyCode', 'specialty code, e.g. PRC, PSY, ABA (v2)'],
  ['--provider-group-id <uuid>', 'providerGroupId', 'provider group (v2)'],
  [
    '--discovery-id <id>',
    'discoveryId',
    `discovery that will find payer / member id (${SANDBOX_DISCOVERY}: create one)`,
  ],
  ['--patient-id <id>', 'patientId', 'legacy patient id (v1)'],
  ['--npi <npi>', 'npi', 'provider NPI (v1)'],
  ['--taxonomy-code <code>', 'taxonomyCode', 'provider taxonomy code (v1)'],
];

const attribute = (flag: string) =>
  flag
    .split(' ')[0]!
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

async function requestFrom(options: Record<string, unknown>): Promise<unknown> {
  const given = FLAGS.filter(([flag]) => options[attribute(flag)] !== undefined);
  if (typeof options.file === 'string') {
    if (given.length > 0 || options.v1)
      throw new CliError('give the request either with --file or with flags, not both');
    try {
      return JSON.parse(await fs.readFile(options.file, 'utf8')) as unknown;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(code ? `cannot read ${options.file}: ${code}` : `${options.file} is not valid JSON`);
    }
  }
  const flat: FlatRequest = options.v1 ? { version: 'v1' } : {};
  for (const [flag, column] of given) flat[column] = options[attribute(flag)] as string;
  return flatToRequest(flat);
}

export function registerStart(program: Command, ctx: CliContext): void {
  const command = program
    .command('start')
    .description('start the verification of one patient, from flags or a JSON file')
    .option('--file <request.json>', 'a whole request as JSON (the intake API body)')
    .option('--v1', 'a v1 request (patient id and NPI instead of the patient object)')
    .option(
      '--tenant <id>',
      'the submitter’s tenant (a provider group or clinic id; never patient data): its fair share of the front desk',
      parsedWith(TenantSchema),
    );
  for (const [flag, , description] of FLAGS) command.option(flag, description);
  command
    .option('--sandbox-url <url>', `sandbox where a ${SANDBOX_DISCOVERY} discovery is created`)
    .option(
      '--grace-seconds <n>',
      'how long a verification without pending runs stays open (default 24 h)',
      positiveInt,
    )
    .option(
      '--wait <seconds>',
      `wait up to this long (at most ${MAX_WAIT_SECONDS}) for it to settle and print its status, as the front desk does`,
      positiveInt,
    )
    .addHelpText(
      'after',
      `
Prints the workflow id, and whether it started or was a duplicate of an earlier request with the same --id. With
--wait, then its status once it is created, awaits input, needs review or has ended (exit 0), or says it has not
settled yet (exit 0: it goes on; \`eligibility status\` follows it).

Examples:
  $ eligibility start --id p-100 --payer-id 60054 --first-name Test --last-name Person \\
      --dob 01/02/1980 --state WA --place-of-service 11 --specialty PRC
  $ eligibility start --v1 --id p-101 --payer-id 87726 --patient-id 1000001 --member-id M1 --npi 1234567893
  $ eligibility start --file request.json`,
    )
    .action(async (options: Record<string, unknown>) => {
      const { IntakeValidationError, splitTenant, startVerification } =
        await import('../../../src/temporal/start-verification.js');
      // A --file holds the intake API's body, which may name the tenant beside the request.
      const { request, tenant: fileTenant } = splitTenant(await requestFrom(options));
      // Checked before connecting: a bad request needs no server to be reported.
      const validation = validateIntake(request);
      if (!validation.ok) throw new IntakeValidationError(validation.param, validation.message);
      const { tenantToStart, visibleWorkflow } = await import('../person.js');
      const tenant = await tenantToStart(ctx, (options.tenant as string | undefined) ?? fileTenant, {
        action: 'verification.start',
        what: 'start a verification',
      });
      await withClient(ctx, async (client, config) => {
        const sandboxUrl = options.sandboxUrl as string | undefined;
        const resolved = await resolveSandboxDiscovery(validation.intake, sandboxUrl);
        const graceSeconds = options.graceSeconds as number | undefined;
        const { loadBlindIndexKeys } = await import('../../../src/blind-index/keys.js');
        const blindIndex = await loadBlindIndexKeys(config.codec);
        const { workflowId, started } = await startVerification(client, resolved, {
          taskQueue: config.temporal.taskQueue,
          lane: 'front-desk',
          ...(tenant !== undefined ? { tenant } : {}),
          tenantWeights: config.tenants.weights,
          ...(blindIndex ? { blindIndex } : {}),
          ...(graceSeconds ? { timing: { graceSeconds } } : {}),
        });
        console.log(
          started
            ? `${workflowId} started`
            : `${workflowId} duplicate: a verification with this id exists already; nothing new was started`,
        );
        const wait = options.wait as number | undefined;
        if (wait === undefined) return;
        // A duplicate's status is shown only to one who may see it.
        if (!started) await visibleWorkflow(ctx, client, workflowId, 'verification.read');
        const { awaitSettled } = await import('../../../src/temporal/await-settled.js');
        const status = await awaitSettled(client, workflowId, Math.min(wait, MAX_WAIT_SECONDS) * 1000);
        if (!status) {
          console.log(`${workflowId} not settled within ${wait} s; it goes on (eligibility status ${workflowId})`);
          return;
        }
        await recordAccess(ctx, {
          action: 'verification.read',
          workflowId,
          ...(tenant !== undefined ? { tenant } : {}),
          fields: statusFields(status),
          outcome: 'ok',
        });
        console.log(fields(statusRows(workflowId, status)));
      });
    });
}
