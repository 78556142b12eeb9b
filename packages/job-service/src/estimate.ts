// Human text for an estimated duration range: '<low>-<high> <unit>' in the largest unit that fits
// ('up to <high> <unit>' when the low end rounds to zero).
export function formatEstimate([low, high]: [number, number]): string {
  const lo = Math.max(0, Math.min(low, high));
  const hi = Math.max(lo, low, high);
  if (hi >= 2 * 3600) return range(lo / 3600, hi / 3600, 'hours');
  if (hi >= 2 * 60) return range(lo / 60, hi / 60, 'minutes');
  return range(lo, hi, 'seconds');
}

function range(lo: number, hi: number, unit: string): string {
  const a = Math.floor(lo);
  const b = Math.max(a, Math.ceil(hi), 1);
  const unitFor = (n: number) => (n === 1 ? unit.replace(/s$/, '') : unit);
  // '0-3 seconds' reads like a typo; a range that starts below one unit is an upper bound.
  if (a === 0) return `up to ${b} ${unitFor(b)}`;
  return a === b ? `${b} ${unitFor(b)}` : `${a}-${b} ${unit}`;
}
