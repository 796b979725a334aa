/** The fields that differ between two views, as { field: { from, to } }: what a governance decision records. */
export function changesBetween<T extends Record<string, unknown>>(before: T, after: T): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of Object.keys(after)) if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = { from: before[k], to: after[k] };
  return out;
}
