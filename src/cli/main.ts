// The `eligibility` command. Its subcommands arrive with the edges issue; `npm start` already runs this file.
function run(): Promise<void> {
  const command = process.argv[2] ?? 'help';
  console.log(`eligibility ${command}: not yet — this command arrives with the edges issue (npm test works now).`);
  return Promise.resolve();
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
