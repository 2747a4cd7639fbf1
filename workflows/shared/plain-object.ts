/** A JSON object: what a message or an input must be before its fields are read (arrays and null are not). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
