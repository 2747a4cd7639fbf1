import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PRODUCT = ['apps', 'src', 'activities', 'workers', 'workflows'];

/** Where the product starts a verification workflow, and the test that shows the start carries `PatientIndex`. */
const START_PATHS = {
  // The intake API, the CLI's start, a batch's items and their resubmissions: test/intake-api/search.test.ts.
  'src/temporal/start-verification.ts': 'startVerification',
  // A patient's checks before a visit and its monthly refresh: test/patients/http-api.test.ts.
  'workflows/patient/verify.ts': 'verifyPatient',
};

async function productFiles(): Promise<{ file: string; text: string }[]> {
  const found: { file: string; text: string }[] = [];
  for (const dir of PRODUCT) {
    for (const entry of await fs.readdir(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
      found.push({ file, text: await fs.readFile(path.join(ROOT, file), 'utf8') });
    }
  }
  return found;
}

// Issue 62, N1: whatever starts a verification (intake, batch, patient check, refresh, resubmit), it carries the
// patient's blind-index tokens, so Find and `POST /verifications/search` find the patient.
describe('every start path of a verification carries PatientIndex', () => {
  it('starts verifications in the listed places only, each setting PatientIndex', async () => {
    const starts =
      /(?:\.start|startChild|executeChild|signalWithStart|startWorkflowOperation)\s*(?:<[^>]*>)?\s*\(\s*WorkflowType\.verification\b/;
    const files = await productFiles();
    const starting = files.filter(({ text }) => starts.test(text)).map(({ file }) => file);
    assert.deepEqual(starting.sort(), Object.keys(START_PATHS).sort(), 'a new start path: index it and list it here');
    for (const { file, text } of files.filter(({ file }) => file in START_PATHS)) {
      assert.match(text, /key: PatientIndex, value: /, `${file} sets PatientIndex`);
    }
  });

  it('gives the index keys at every call of startVerification', async () => {
    const calls = (await productFiles()).flatMap(({ file, text }) =>
      [...text.matchAll(/\bstartVerification\(/g)]
        .filter((m) => !text.slice(m.index - 20, m.index).includes('function '))
        .map((m) => ({ file, call: balanced(text, m.index + m[0].length - 1) })),
    );
    assert.ok(calls.length >= 3, `the intake API, the CLI and a batch's items call it: found ${calls.length}`);
    for (const { file, call } of calls) {
      assert.match(call, /blindIndex/, `${file} starts a verification without the index's keys`);
    }
  });
});

/** The text from the parenthesis at `open` to the one that closes it. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}
