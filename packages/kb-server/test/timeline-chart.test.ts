// The web console's timeline chart (src/console/web/timeline-chart.js), run in Node with a plain element factory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activeSeries, timelineChart } from '../src/console/web/timeline-chart.js';

const ev = (at: string, event: 'added' | 'retracted' | 'degraded', claim_id: string) => ({ at, event, claim_id });

test('activeSeries counts active claims after each event, oldest first; degraded then retracted counts once', () => {
  const series = activeSeries([
    ev('2024-01-03T00:00:00Z', 'degraded', 'c1'),
    ev('2024-01-01T00:00:00Z', 'added', 'c1'),
    ev('2024-01-02T00:00:00Z', 'added', 'c2'),
    ev('2024-01-04T00:00:00Z', 'retracted', 'c1'),
    ev('2024-01-05T00:00:00Z', 'retracted', 'c2'),
  ]);
  assert.deepEqual(
    series.map((p) => [p.event, p.claim_id, p.active]),
    [
      ['added', 'c1', 1],
      ['added', 'c2', 2],
      ['degraded', 'c1', 1],
      ['retracted', 'c1', 1],
      ['retracted', 'c2', 0],
    ],
  );
});

interface El {
  tag: string;
  attrs: Record<string, unknown>;
  children: El[];
  append(...c: El[]): void;
}
const s = (tag: string, attrs: Record<string, unknown> = {}, ...children: El[]): El => {
  const el: El = { tag, attrs, children: [...children], append: (...c) => el.children.push(...c) };
  return el;
};

test('timelineChart draws one mark per event, at the top for the peak and on the axis at zero', () => {
  const svg = timelineChart(
    s,
    [
      ev('2024-01-01T00:00:00Z', 'added', 'a'),
      ev('2024-01-02T00:00:00Z', 'added', 'b'),
      ev('2024-01-03T00:00:00Z', 'retracted', 'a'),
    ],
    (iso) => iso.slice(0, 10),
  );
  assert.equal(svg.tag, 'svg');
  const marks = svg.children.filter((c) => c.tag === 'circle');
  assert.deepEqual(
    marks.map((m) => m.attrs['data-event']),
    ['added', 'added', 'retracted'],
  );
  const cy = marks.map((m) => Number(m.attrs.cy));
  // Heights 1, 2, 1 of a peak of 2: the second mark is highest (smallest y), the others level.
  assert.ok(cy[1]! < cy[0]! && cy[0] === cy[2]);
  const cx = marks.map((m) => Number(m.attrs.cx));
  assert.ok(cx[0]! < cx[1]! && cx[1]! < cx[2]!, 'time runs left to right');
  assert.equal(timelineChart(s, [], String).children.length, 0);
});
