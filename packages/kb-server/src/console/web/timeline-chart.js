// @ts-check
// The entity timeline as a small inline SVG chart (no chart library: a step line and one mark per event is a
// few dozen lines). y is the number of the entity's claims active after each event: +1 when a claim is
// added, -1 when an active one is retracted or degraded (a claim degraded and later retracted counts once).

/** [{ t, active, event, claim_id }] from evolution events (any order), oldest first. */
export function activeSeries(events) {
  const sorted = [...events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const active = new Set();
  return sorted.map((e) => {
    if (e.event === 'added') active.add(e.claim_id);
    else active.delete(e.claim_id);
    return { t: Date.parse(e.at), active: active.size, event: e.event, claim_id: e.claim_id };
  });
}

const W = 640;
const H = 140;
const PAD = { left: 36, right: 12, top: 10, bottom: 22 };

/** The chart, built with the page's SVG element factory `s` (attributes and textContent only). */
export function timelineChart(s, events, fmtDate) {
  const points = activeSeries(events);
  const svg = s('svg', {
    class: 'timeline-chart',
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': 'Active claims over time',
    'data-points': points.length,
  });
  if (points.length === 0) return svg;
  const t0 = points[0].t;
  const t1 = points[points.length - 1].t;
  const top = Math.max(1, ...points.map((p) => p.active));
  const x = (t) => PAD.left + (t1 === t0 ? 0.5 : (t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - (v / top) * (H - PAD.top - PAD.bottom);
  // Step line: the count holds until the next event.
  let d = `M${x(t0).toFixed(1)},${y(0).toFixed(1)}`;
  for (const p of points) d += ` H${x(p.t).toFixed(1)} V${y(p.active).toFixed(1)}`;
  svg.append(
    s('line', { class: 'axis', x1: PAD.left, y1: y(0), x2: W - PAD.right, y2: y(0) }),
    s('line', { class: 'axis', x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(0) }),
    s('text', { class: 'tick', x: PAD.left - 4, y: y(top) + 4, 'text-anchor': 'end', text: top }),
    s('text', { class: 'tick', x: PAD.left - 4, y: y(0) + 4, 'text-anchor': 'end', text: 0 }),
    s('text', { class: 'tick', x: PAD.left, y: H - 6, text: fmtDate(new Date(t0).toISOString()) }),
    s('text', {
      class: 'tick',
      x: W - PAD.right,
      y: H - 6,
      'text-anchor': 'end',
      text: fmtDate(new Date(t1).toISOString()),
    }),
    s('path', { class: 'series', d, fill: 'none' }),
  );
  for (const p of points)
    svg.append(
      s(
        'circle',
        { class: `mark ${p.event}`, 'data-event': p.event, cx: x(p.t), cy: y(p.active), r: 3.5 },
        s('title', {
          text: `${fmtDate(new Date(p.t).toISOString())} · ${p.event} · ${p.claim_id} · ${p.active} active`,
        }),
      ),
    );
  return svg;
}
