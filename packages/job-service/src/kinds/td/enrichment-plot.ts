// The enrichment dot plot (issue 42, point 3): the most significant sets, one row each, at -log10 p along x, the dot's
// area by the set's size and its colour by direction; standalone SVG as the discovery plots are.
import type { EnrichmentRow } from '@evident/target-discovery';

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (wire/json-shape.ts's byte codes, compound-generation's atom-pair codes); the values are unrelated, nothing to share.
const W = 900;
const LEFT = 380;
const RIGHT = 150;
const TOP = 64;
const ROW = 22;
const BOTTOM = 56;
const COLOR = { up: '#c0392b', down: '#2e6da4' } as const;

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const score = (p: number) => -Math.log10(Math.max(p, 1e-300));

/** Nice axis ticks from 0 to at least `max`. */
function ticks(max: number): number[] {
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(Number(v.toPrecision(6)));
  return out;
}

/** The `top` sets with the smallest p over every method and collection; null when there is no row. */
export function enrichmentDotPlotSvg(rows: readonly EnrichmentRow[], top = 25): string | null {
  const best = rows
    .filter((r) => Number.isFinite(r.p_value))
    .sort((a, b) => a.p_value - b.p_value)
    .slice(0, top);
  if (best.length === 0) return null;
  const H = TOP + best.length * ROW + BOTTOM;
  const xmax = Math.max(2, ...best.map((r) => score(r.p_value))) * 1.05;
  const axis = ticks(xmax);
  const x1 = axis[axis.length - 1]!;
  const px = (v: number) => LEFT + (v / x1) * (W - LEFT - RIGHT);
  const maxSize = Math.max(...best.map((r) => r.size));
  const radius = (size: number) => 3 + 9 * Math.sqrt(size / maxSize);
  const parts: string[] = [
    `<text x="20" y="28" font-size="16" font-weight="600">Gene-set enrichment: top ${best.length} of ${rows.length} sets</text>`,
    `<text x="20" y="48" font-size="12" fill="#555">x: -log10 p-value; dot area: set size (largest ${maxSize}); colour: direction</text>`,
  ];
  for (const v of axis) {
    const x = px(v).toFixed(1);
    parts.push(
      `<line x1="${x}" y1="${TOP}" x2="${x}" y2="${H - BOTTOM}" stroke="#e5e5e5"/>`,
      `<text x="${x}" y="${H - BOTTOM + 16}" font-size="11" text-anchor="middle">${v}</text>`,
    );
  }
  const p05 = px(score(0.05)).toFixed(1);
  parts.push(
    `<line x1="${p05}" y1="${TOP}" x2="${p05}" y2="${H - BOTTOM}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<text x="${(LEFT + W - RIGHT) / 2}" y="${H - 14}" font-size="12" text-anchor="middle">-log10 p-value (dashed: p = 0.05)</text>`,
  );
  best.forEach((r, i) => {
    const y = TOP + (i + 0.5) * ROW;
    const label = `${short(r.set_name, 44)} (${r.method}, ${r.collection === 'GMT' ? r.set_id : r.collection})`;
    parts.push(
      `<text x="${LEFT - 10}" y="${y.toFixed(1)}" font-size="11" text-anchor="end" dominant-baseline="middle"><title>${esc(`${r.set_id}: ${r.set_name}; ${r.method}, size ${r.size}, p ${r.p_value}, FDR ${r.fdr}`)}</title>${esc(short(label, 62))}</text>`,
      `<circle cx="${px(score(r.p_value)).toFixed(1)}" cy="${y.toFixed(1)}" r="${radius(r.size).toFixed(1)}" fill="${COLOR[r.direction]}" fill-opacity="0.8"/>`,
    );
  });
  const lx = W - RIGHT + 20;
  parts.push(
    `<circle cx="${lx}" cy="${TOP + 8}" r="6" fill="${COLOR.up}"/><text x="${lx + 12}" y="${TOP + 8}" font-size="12" dominant-baseline="middle">up</text>`,
    `<circle cx="${lx}" cy="${TOP + 30}" r="6" fill="${COLOR.down}"/><text x="${lx + 12}" y="${TOP + 30}" font-size="12" dominant-baseline="middle">down</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" font-family="Helvetica, Arial, sans-serif">\n<rect width="${W}" height="${H}" fill="#ffffff"/>\n${parts.join('\n')}\n</svg>\n`;
}
