// An estimated duration on the wire: `estimated_seconds` ([low, high] whole seconds) and `estimated_time`, the
// same range as text in the seed's form '<low>-<high> <unit>' ('2-3 hours', '4-32 seconds'). The seconds are
// rounded first and the text is made from them, so the two always agree: in seconds the text is the same two
// numbers, in a larger unit it is the tightest range of whole units that contains them.

export interface EstimateFields {
  estimated_time: string;
  estimated_seconds: [number, number];
}

const UNITS: ReadonlyArray<[seconds: number, name: string]> = [
  [3600, 'hours'],
  [60, 'minutes'],
  [1, 'seconds'],
];

/**
 * Whole seconds for a [low, high] estimate, as the seed's clients read a range: two different whole numbers, the
 * low end at least 1 (rounded down, the high end rounded up; a reversed range is put in order).
 */
export function wholeSeconds([low, high]: [number, number]): [number, number] {
  const lo = Math.max(1, Math.floor(Math.max(0, Math.min(low, high))));
  return [lo, Math.max(lo + 1, Math.ceil(Math.max(low, high)))];
}

/** Both wire fields from one [low, high] in seconds. */
export function estimateFields(range: [number, number]): EstimateFields {
  const seconds = wholeSeconds(range);
  const [lo, hi] = seconds;
  // The largest unit that the high end reaches twice and the low end once, so the text's low end is a whole
  // number of at least 1 that does not overstate the low estimate.
  const [size, name] = UNITS.find(([u]) => hi >= 2 * u && lo >= u)!;
  const a = Math.floor(lo / size);
  const b = Math.max(a + 1, Math.ceil(hi / size));
  return { estimated_time: `${a}-${b} ${name}`, estimated_seconds: seconds };
}

/** `estimated_time` alone. */
export const formatEstimate = (range: [number, number]): string => estimateFields(range).estimated_time;

/** The job's own [low, high] seconds plus the wait for a worker. */
export const withWait = ([low, high]: [number, number], [waitLow, waitHigh]: [number, number]): [number, number] => [
  low + waitLow,
  high + waitHigh,
];
