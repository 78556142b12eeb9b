// The proleptic Gregorian calendar on day numbers (days since 1970-01-01): civil dates, ISO week dates
// (weeks start on Monday; week 1 holds the year's first Thursday), ordinal dates and quarters.

/** Days from civil (Howard Hinnant's algorithm), exact over the whole proleptic calendar. */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}

export const monthLength = (y: number, m: number): number =>
  (m === 12 ? daysFromCivil(y + 1, 1, 1) : daysFromCivil(y, m + 1, 1)) - daysFromCivil(y, m, 1);

export const yearLength = (y: number): number => daysFromCivil(y + 1, 1, 1) - daysFromCivil(y, 1, 1);

/** ISO day of week, Monday 1 … Sunday 7 (1970-01-01 was a Thursday). */
export const dayOfWeek = (epochDay: number): number => ((((epochDay + 3) % 7) + 7) % 7) + 1;

/** The Monday of week 1 of an ISO week-based year. */
function weekOneMonday(weekYear: number): number {
  const jan4 = daysFromCivil(weekYear, 1, 4);
  return jan4 - (dayOfWeek(jan4) - 1);
}

export function isoWeek(epochDay: number): { weekYear: number; week: number; dayOfWeek: number } {
  const dow = dayOfWeek(epochDay);
  const thursday = epochDay - dow + 4;
  const weekYear = civilFromDays(thursday)[0];
  const week = Math.floor((thursday - daysFromCivil(weekYear, 1, 1)) / 7) + 1;
  return { weekYear, week, dayOfWeek: dow };
}

export const weeksInYear = (weekYear: number): number => isoWeek(daysFromCivil(weekYear, 12, 28)).week;

export const weekDate = (weekYear: number, week: number, dow: number): number =>
  weekOneMonday(weekYear) + (week - 1) * 7 + (dow - 1);

export const quarterStart = (y: number, quarter: number): number => daysFromCivil(y, (quarter - 1) * 3 + 1, 1);

export const quarterLength = (y: number, quarter: number): number =>
  (quarter === 4 ? daysFromCivil(y + 1, 1, 1) : quarterStart(y, quarter + 1)) - quarterStart(y, quarter);

/** Every calendar field of a day, as the accessors and the constructors' defaults read them. */
export function dateFields(epochDay: number) {
  const [year, month, day] = civilFromDays(epochDay);
  const quarter = Math.floor((month - 1) / 3) + 1;
  const w = isoWeek(epochDay);
  return {
    year,
    month,
    day,
    quarter,
    dayOfQuarter: epochDay - quarterStart(year, quarter) + 1,
    ordinalDay: epochDay - daysFromCivil(year, 1, 1) + 1,
    weekYear: w.weekYear,
    week: w.week,
    dayOfWeek: w.dayOfWeek,
  };
}

/** `epochDay` plus whole months, the day clamped to the new month's length (as Java's plusMonths). */
export function plusMonths(epochDay: number, months: number): number {
  if (months === 0) return epochDay;
  const [y, m, d] = civilFromDays(epochDay);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  return daysFromCivil(ny, nm, Math.min(d, monthLength(ny, nm)));
}

/** Whole months from one day to another, truncated toward zero (as Java's LocalDate.until(…, MONTHS)). */
export function monthsUntil(from: number, to: number): number {
  const [y1, m1, d1] = civilFromDays(from);
  const [y2, m2, d2] = civilFromDays(to);
  const packed1 = (y1 * 12 + m1 - 1) * 32 + d1;
  const packed2 = (y2 * 12 + m2 - 1) * 32 + d2;
  return Math.trunc((packed2 - packed1) / 32);
}
