// Human text for an estimated duration range, in the seed's form '<low>-<high> <unit>' ('2-3 hours',
// '4-32 seconds'), in the largest unit that the high end reaches twice.
export function formatEstimate([low, high]: [number, number]): string {
  const lo = Math.max(0, Math.min(low, high));
  const hi = Math.max(lo, low, high);
  if (hi >= 2 * 3600) return range(lo / 3600, hi / 3600, 'hours');
  if (hi >= 2 * 60) return range(lo / 60, hi / 60, 'minutes');
  return range(lo, hi, 'seconds');
}

function range(lo: number, hi: number, unit: string): string {
  // Always two different whole numbers, the low end at least 1: the seed's clients parse '<low>-<high>'.
  const a = Math.max(1, Math.floor(lo));
  const b = Math.max(a + 1, Math.ceil(hi));
  return `${a}-${b} ${unit}`;
}

/** The job's own [low, high] seconds plus the wait for a worker. */
export const withWait = ([low, high]: [number, number], [waitLow, waitHigh]: [number, number]): [number, number] => [
  low + waitLow,
  high + waitHigh,
];
