import fs from 'node:fs/promises';
import type { WorkflowHandle } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { testDataConverter } from './codec.js';

export const HISTORIES_DIR = new URL('../test/histories/', import.meta.url);

interface JsonPayload {
  metadata: Record<string, string>;
  data?: string;
}

function isJsonPayload(node: unknown): node is JsonPayload {
  const metadata = (node as { metadata?: unknown } | null)?.metadata;
  return typeof metadata === 'object' && metadata !== null && 'encoding' in metadata;
}

/**
 * Decodes every payload of a history in its proto-JSON form (base64 metadata and data), so the file replays without
 * this run's keys: the tests' workers encrypt, and the replay test runs with no codec (the data is the fixtures').
 */
async function decodePayloads(node: unknown, codec: PayloadCodec): Promise<unknown> {
  if (Array.isArray(node)) return Promise.all(node.map((item) => decodePayloads(item, codec)));
  if (typeof node !== 'object' || node === null) return node;
  if (isJsonPayload(node)) {
    const encoded: Payload = {
      metadata: Object.fromEntries(Object.entries(node.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
      data: Buffer.from(node.data ?? '', 'base64'),
    };
    const [decoded] = await codec.decode([encoded]);
    return {
      metadata: Object.fromEntries(
        Object.entries(decoded?.metadata ?? {}).map(([k, v]) => [
          k,
          Buffer.from(v ?? new Uint8Array()).toString('base64'),
        ]),
      ),
      data: Buffer.from(decoded?.data ?? new Uint8Array()).toString('base64'),
    };
  }
  const entries = await Promise.all(
    Object.entries(node).map(async ([key, value]) => [key, await decodePayloads(value, codec)] as const),
  );
  return Object.fromEntries(entries);
}

/**
 * With RECORD_HISTORIES=1 (`npm run test:record-histories`), saves a finished workflow's history under
 * test/histories/, decrypted, where the replay test replays it on every run: a non-deterministic change then fails CI.
 */
export async function recordHistory(name: string, handle: WorkflowHandle): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = JSON.parse(historyToJSON(await handle.fetchHistory())) as unknown;
  const [codec] = testDataConverter().payloadCodecs ?? [];
  const decoded = codec ? await decodePayloads(history, codec) : history;
  await fs.mkdir(HISTORIES_DIR, { recursive: true });
  await fs.writeFile(new URL(`${name}.json`, HISTORIES_DIR), `${JSON.stringify(decoded, null, 2)}\n`);
}
