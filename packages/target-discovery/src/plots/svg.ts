// Small hand-written SVG toolkit for the scatter plots: scales, "nice" ticks, escaping, text.

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

/** Round-number tick positions covering [lo, hi]. */
function niceTicks(lo: number, hi: number, target = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) out.push(Math.round(v / step) * step);
  return out;
}

export interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export const px = (f: Frame, x: number) => f.left + ((x - f.x0) / (f.x1 - f.x0)) * (f.width - f.left - f.right);
export const py = (f: Frame, y: number) =>
  f.height - f.bottom - ((y - f.y0) / (f.y1 - f.y0)) * (f.height - f.top - f.bottom);

export function axes(f: Frame, xLabel: string, yLabel: string): string {
  const parts: string[] = [];
  const xb = f.height - f.bottom;
  const yl = f.left;
  parts.push(
    `<rect x="${yl}" y="${f.top}" width="${f.width - f.left - f.right}" height="${f.height - f.top - f.bottom}" fill="#ffffff" stroke="#444" stroke-width="1"/>`,
  );
  for (const t of niceTicks(f.x0, f.x1)) {
    const x = px(f, t).toFixed(1);
    parts.push(`<line x1="${x}" y1="${xb}" x2="${x}" y2="${xb + 5}" stroke="#444"/>`);
    parts.push(`<text x="${x}" y="${xb + 20}" text-anchor="middle" class="tick">${fmt(t)}</text>`);
  }
  for (const t of niceTicks(f.y0, f.y1)) {
    const y = py(f, t).toFixed(1);
    parts.push(`<line x1="${yl - 5}" y1="${y}" x2="${yl}" y2="${y}" stroke="#444"/>`);
    parts.push(
      `<text x="${yl - 8}" y="${y}" text-anchor="end" dominant-baseline="middle" class="tick">${fmt(t)}</text>`,
    );
  }
  const cx = (f.left + f.width - f.right) / 2;
  const cy = (f.top + f.height - f.bottom) / 2;
  parts.push(`<text x="${cx}" y="${f.height - 14}" text-anchor="middle" class="label">${esc(xLabel)}</text>`);
  parts.push(
    `<text x="18" y="${cy}" text-anchor="middle" class="label" transform="rotate(-90 18 ${cy})">${esc(yLabel)}</text>`,
  );
  return parts.join('\n');
}

export const STYLE = `<style>
text { font-family: 'Helvetica Neue', Arial, sans-serif; fill: #222; }
.tick { font-size: 13px; }
.label { font-size: 15px; }
.title { font-size: 18px; font-weight: 600; }
.subtitle { font-size: 13px; fill: #555; }
.gene { font-size: 12px; font-weight: 600; }
.legend { font-size: 13px; }
.threshold { stroke: #666; stroke-width: 1; stroke-dasharray: 5 4; }
</style>`;

export const COLORS = { up: '#c0392b', down: '#2166ac', ns: '#b8b8b8' };

/** Points that fall on the same (rounded) pixel are drawn once: the picture is the same, the file smaller. */
export function dedupePixels(points: Array<[number, number, string]>): Array<[number, number, string]> {
  const seen = new Set<string>();
  const out: Array<[number, number, string]> = [];
  for (const p of points) {
    const k = `${Math.round(p[0] * 2)},${Math.round(p[1] * 2)},${p[2]}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(p);
  }
  return out;
}

/** Place labels next to their points, nudging down/up to avoid overlapping earlier labels. */
export function placeLabels(items: Array<{ x: number; y: number; text: string }>, f: Frame): string {
  const boxes: Array<[number, number, number, number]> = [];
  const out: string[] = [];
  const h = 14;
  for (const it of items) {
    const w = it.text.length * 7.2 + 4;
    const right = it.x < f.width - f.right - w - 12;
    let lx = right ? it.x + 8 : it.x - 8 - w;
    let ly = it.y - 4;
    const overlaps = (y: number) =>
      boxes.some(([bx, by, bw, bh]) => lx < bx + bw && lx + w > bx && y - h < by && y > by - bh);
    for (let k = 1; k < 12 && overlaps(ly); k++) ly = it.y - 4 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * (h + 1);
    ly = Math.min(Math.max(ly, f.top + h), f.height - f.bottom - 2);
    boxes.push([lx, ly, w, h]);
    const anchorX = right ? lx : lx + w;
    out.push(
      `<line x1="${it.x.toFixed(1)}" y1="${it.y.toFixed(1)}" x2="${anchorX.toFixed(1)}" y2="${(ly - 4).toFixed(1)}" stroke="#333" stroke-width="0.8"/>`,
    );
    out.push(`<text x="${(lx + 2).toFixed(1)}" y="${ly.toFixed(1)}" class="gene">${esc(it.text)}</text>`);
    lx = 0;
  }
  return out.join('\n');
}
