/** How deeply a JSON value nests (a scalar is 0, `{}` and `[]` are 1), counted without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(current as Record<string, unknown>)) pending.push([child, depth + 1]);
  }
  return deepest;
}
