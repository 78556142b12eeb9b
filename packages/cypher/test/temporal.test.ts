// Temporal functions against values the openCypher TCK expects (features/expressions/temporal of
// opencypher/openCypher 677cbaf, Temporal1-10), plus java.time's documented handling of a daylight-saving gap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CypherError, MemoryGraph, runCypher } from '../src/index.js';

/** The one value a `RETURN … AS v` query gives, as Cypher prints it. */
function value(q: string): string | bigint | null {
  const v = runCypher(new MemoryGraph(), q).rows[0]![0];
  return v === null || typeof v === 'bigint' ? v : String(v);
}

test('week, ordinal and quarter dates, from maps and from ISO text', () => {
  const cases: [string, string][] = [
    ['date({year: 1817, week: 1})', '1816-12-30'],
    ['date({year: 1818, week: 53})', '1818-12-28'],
    ['date({dayOfWeek: 2, year: 1817, week: 1})', '1816-12-31'],
    ["date({date: date('1816-12-31'), week: 2})", '1817-01-07'],
    ['date({year: 1984, ordinalDay: 202})', '1984-07-20'],
    ['date({year: 1984, quarter: 3, dayOfQuarter: 45})', '1984-08-14'],
    ['date({date: date({year: 1984, month: 11, day: 11}), quarter: 3})', '1984-08-11'],
    ["date('2015W302')", '2015-07-21'],
    ["date('2015-202')", '2015-07-21'],
    ["date('201507')", '2015-07-01'],
    ["localdatetime('2015-W30T2140')", '2015-07-20T21:40'],
    ["datetime('2015202T21+18:00')", '2015-07-21T21:00+18:00'],
    ["time('2140-02')", '21:40-02:00'],
  ];
  for (const [expr, expected] of cases) assert.equal(value(`RETURN ${expr} AS v`), expected, expr);
});

test('a week the year does not have, or a date field mix, is refused', () => {
  assert.throws(() => value('RETURN date({year: 1817, week: 53}) AS v'), CypherError);
  assert.throws(() => value('RETURN date({year: 1984, month: 2, week: 3}) AS v'), CypherError);
  assert.throws(() => value("RETURN datetime({year: 1984, timezone: 'Mars/Olympus'}) AS v"), CypherError);
});

test('named time zones take their offset at that moment, historical ones included', () => {
  assert.equal(
    value("RETURN datetime({year: 1984, ordinalDay: 202, hour: 12, timezone: 'Europe/Stockholm'}) AS v"),
    '1984-07-20T12:00+02:00[Europe/Stockholm]',
  );
  assert.equal(
    value("RETURN datetime('1818-07-21T21:40:32.142[Europe/Stockholm]') AS v"),
    '1818-07-21T21:40:32.142+00:53:28[Europe/Stockholm]',
  );
  assert.equal(
    value("RETURN datetime('2015-07-21T21:40:32.142-04[America/New_York]') AS v"),
    '2015-07-21T21:40:32.142-04:00[America/New_York]',
  );
  // Moving to another zone keeps the instant: 12:00 in Stockholm (+01:00) is 01:00 in Honolulu.
  assert.equal(
    value(
      "WITH datetime({year: 1984, month: 10, day: 11, hour: 12, timezone: 'Europe/Stockholm'}) AS o " +
        "RETURN datetime({datetime: o, day: 28, second: 42, timezone: 'Pacific/Honolulu'}) AS v",
    ),
    '1984-10-28T01:00:42-10:00[Pacific/Honolulu]',
  );
  // In the spring gap a wall-clock time is shifted forward by the gap (java.time's ofLocal).
  assert.equal(
    value("RETURN datetime({year: 2017, month: 3, day: 26, hour: 2, minute: 30, timezone: 'Europe/Stockholm'}) AS v"),
    '2017-03-26T03:30+02:00[Europe/Stockholm]',
  );
  assert.equal(
    value("RETURN time({hour: 12, minute: 34, second: 56, timezone: '-02:05:07'}) AS v"),
    '12:34:56-02:05:07',
  );
});

test('truncate to every unit, with the map set over the result', () => {
  const dt =
    "datetime({year: 2017, month: 10, day: 11, hour: 12, minute: 31, second: 14, nanosecond: 645876123, timezone: '-01:00'})";
  const cases: [string, string][] = [
    [`date.truncate('millennium', ${dt}, {day: 2})`, '2000-01-02'],
    [`datetime.truncate('century', ${dt}, {timezone: 'Europe/Stockholm'})`, '2000-01-01T00:00+01:00[Europe/Stockholm]'],
    ["date.truncate('weekYear', date({year: 1984, month: 2, day: 1}))", '1984-01-02'],
    [
      "localdatetime.truncate('weekYear', localdatetime({year: 1984, month: 1, day: 1, hour: 12}), {day: 5})",
      '1983-01-05T00:00',
    ],
    ["date.truncate('week', date({year: 1984, month: 10, day: 11}), {dayOfWeek: 2})", '1984-10-09'],
    ["date.truncate('quarter', date({year: 1984, month: 11, day: 11}))", '1984-10-01'],
    [`datetime.truncate('millisecond', ${dt}, {nanosecond: 2})`, '2017-10-11T12:31:14.645000002-01:00'],
    [`localtime.truncate('microsecond', ${dt})`, '12:31:14.645876'],
    [`time.truncate('hour', ${dt}, {timezone: '+01:00'})`, '12:00+01:00'],
  ];
  for (const [expr, expected] of cases) assert.equal(value(`RETURN ${expr} AS v`), expected, expr);
  assert.throws(() => value("RETURN date.truncate('hour', date('2017-01-01')) AS v"), CypherError);
});

test('durations: fractions carried into smaller units, ISO text, arithmetic and components', () => {
  const cases: [string, string][] = [
    ['duration({months: 0.75})', 'P22DT19H51M49.5S'],
    ['duration({weeks: 2.5})', 'P17DT12H'],
    ["duration('P2012-02-02T14:37:21.545')", 'P2012Y2M2DT14H37M21.545S'],
    ["duration('PT0.75M')", 'PT45S'],
    ['duration({seconds: -60, milliseconds: -1})', 'PT-1M-0.001S'],
    [
      'duration({years: 12, months: 5, days: 14, hours: 16, minutes: 12, seconds: 70, nanoseconds: 1}) * 0.5',
      'P6Y2M22DT13H21M8S',
    ],
    [
      'duration({months: 1, days: -14, hours: 16, minutes: -12, seconds: 70}) - duration({years: 12, months: 5, days: 14, hours: 16, minutes: 12, seconds: 70, nanoseconds: 1})',
      'P-12Y-4M-28DT-24M-0.000000001S',
    ],
    [
      'date({year: 1984, month: 10, day: 11}) - duration({years: 12.5, months: 5.5, days: 14.5, hours: 16.5, minutes: 12.5, seconds: 70.5, nanoseconds: 3})',
      '1971-10-12',
    ],
    [
      'localtime({hour: 12, minute: 31, second: 14, nanosecond: 1}) + duration({years: 12, months: 5, days: 14, hours: 16, minutes: 12, seconds: 70, nanoseconds: 2})',
      '04:44:24.000000003',
    ],
  ];
  for (const [expr, expected] of cases) assert.equal(value(`RETURN ${expr} AS v`), expected, expr);
  const d = 'duration({years: 1, months: 4, days: 10, hours: 1, minutes: 1, seconds: 1, nanoseconds: 111111111})';
  const components: [string, bigint][] = [
    ['quarters', 5n],
    ['months', 16n],
    ['minutes', 61n],
    ['milliseconds', 3661111n],
    ['monthsOfQuarter', 1n],
    ['daysOfWeek', 3n],
    ['nanosecondsOfSecond', 111111111n],
  ];
  for (const [key, expected] of components) assert.equal(value(`WITH ${d} AS d RETURN d.${key} AS v`), expected, key);
  assert.equal(
    value(
      "WITH duration.between(localdatetime('2018-01-02T10:00:00.1'), localdatetime('2018-01-01T10:00:00.2')) AS d RETURN d.seconds AS v",
    ),
    -86400n,
  );
});

test('components of dates and datetimes, the week-based year included', () => {
  const d =
    "datetime({year: 1984, month: 11, day: 11, hour: 12, minute: 31, second: 14, nanosecond: 645876123, timezone: 'Europe/Stockholm'})";
  const cases: [string, bigint | string][] = [
    ['week', 45n],
    ['ordinalDay', 316n],
    ['weekDay', 7n],
    ['dayOfQuarter', 42n],
    ['microsecond', 645876n],
    ['timezone', 'Europe/Stockholm'],
    ['offset', '+01:00'],
    ['epochMillis', 469020674645n],
  ];
  for (const [key, expected] of cases) assert.equal(value(`WITH ${d} AS d RETURN d.${key} AS v`), expected, key);
  assert.equal(value('WITH date({year: 1984, month: 1, day: 1}) AS d RETURN d.weekYear AS v'), 1983n);
});

test('duration.between and its units', () => {
  const cases: [string, string][] = [
    ["duration.between(date('1984-10-11'), datetime('2015-07-21T21:40:32.142+0100'))", 'P30Y9M10DT21H40M32.142S'],
    [
      "duration.between(datetime('2014-07-21T21:40:36.143+0200'), datetime('2015-07-21T21:40:32.142+0100'))",
      'P1YT59M55.999S',
    ],
    ["duration.between(time('14:30'), datetime('2015-07-21T21:40:32.142+0100'))", 'PT6H10M32.142S'],
    [
      "duration.between(datetime('2017-10-28T23:00+02:00[Europe/Stockholm]'), datetime('2017-10-29T04:00+01:00[Europe/Stockholm]'))",
      'PT6H',
    ],
    [
      "duration.inMonths(datetime('2018-07-21T21:40:36.143+0500'), datetime('1984-07-21T22:40:36.143+0200'))",
      'P-33Y-11M',
    ],
    ["duration.inDays(datetime('2014-07-21T21:40:36.143+0200'), date('2015-06-24'))", 'P337D'],
    [
      "duration.inSeconds(localtime({hour: 0}), datetime({year: 2017, month: 10, day: 29, hour: 4, timezone: 'Europe/Stockholm'}))",
      'PT5H',
    ],
    ["duration.inSeconds(localtime('12:44:54.7'), localtime('12:34:55.3'))", 'PT-9M-59.4S'],
    ["duration.between(date('-999999999-01-01'), date('+999999999-12-31'))", 'P1999999998Y11M30D'],
    [
      "duration.inSeconds(localdatetime('-999999999-01-01'), localdatetime('+999999999-12-31T23:59:59'))",
      'PT17531639991215H59M59S',
    ],
  ];
  for (const [expr, expected] of cases) assert.equal(value(`RETURN ${expr} AS v`), expected, expr);
  assert.equal(value('RETURN duration.between(null, null) AS v'), null);
});

test('a duration past 64-bit parts or a non-finite one is refused', () => {
  assert.throws(() => value('RETURN duration({years: 1e300}) AS v'), CypherError);
  assert.throws(() => value('RETURN duration({seconds: 1.0 / 0.0}) AS v'), CypherError);
  assert.throws(() => value('RETURN duration({days: 1}) / 0 AS v'), CypherError);
});

test('a product of a duration past 64-bit parts is refused', () => {
  assert.throws(() => value('RETURN duration({months: 2}) * 9223372036854775807 AS v'), CypherError);
  assert.equal(value('RETURN duration({months: 2, seconds: 1}) * 3 AS v'), 'P6MT3S');
});

test('epoch fields build an instant; dates stay within the years ±999,999,999', () => {
  assert.equal(
    value('RETURN datetime({epochSeconds: 416779, nanosecond: 999999999}) AS v'),
    '1970-01-05T19:46:19.999999999Z',
  );
  assert.equal(
    value("RETURN datetime({epochMillis: 237821673987, timezone: 'Europe/Stockholm'}) AS v"),
    '1977-07-15T14:34:33.987+01:00[Europe/Stockholm]',
  );
  assert.equal(value("RETURN date('+999999999-12-30') + duration({days: 1}) AS v"), '+999999999-12-31');
  assert.throws(() => value("RETURN date('+999999999-12-31') + duration({days: 1}) AS v"), CypherError);
  assert.throws(() => value('RETURN date({year: 2015, day: 3}) AS v'), /day needs month/);
});

test('a list of durations is a property value, stored and read back (TCK Temporal4, "Should store duration array")', () => {
  const g = new MemoryGraph();
  runCypher(g, "CREATE ({d: [duration('P1Y2M3DT4H'), duration({days: 5})]})");
  const d = runCypher(g, 'MATCH (n) RETURN n.d AS d').rows[0]![0] as unknown[];
  assert.deepEqual(d.map(String), ['P1Y2M3DT4H', 'P5D']);
  assert.throws(() => runCypher(g, 'CREATE ({d: [{a: 1}]})'), CypherError, 'a list of maps stays refused');
});
