/** `1 warning`, `2 warnings`, `0 recipes`: a count with its noun agreeing. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
