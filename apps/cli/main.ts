import { runCommand } from './run.js';

runCommand(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('eligibility:', err);
    process.exit(1);
  },
);
