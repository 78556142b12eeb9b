// Volcano and MA plots of a differential-expression result, as standalone SVG for slides and reports.
import { axes, COLORS, dedupePixels, esc, fmt, placeLabels, px, py, STYLE, type Frame } from './svg.js';

export interface PlotPoint {
  label: string;
  log2FoldChange: number;
  pValue: number;
  averageExpression: number;
  status: 'up' | 'down' | 'ns';
}

export interface PlotOptions {
  title: string;
  subtitle?: string;
  minAbsLog2FoldChange: number;
  /** Raw p-value at which the significance line is drawn (for an FDR threshold: the largest significant raw p). */
  pValueLine?: number;
  pValueLineLabel?: string;
  /** Labels drawn next to these points, in priority order. */
  highlight: string[];
  /** What the labelled points are, shown under the legend (e.g. 'Labels: top 12 targets by priority'). */
  highlightNote?: string;
  expressionLabel?: string;
}

const W = 900;
const H = 640;

function legend(points: PlotPoint[], f: Frame, note?: string): string {
  const n = { up: 0, down: 0, ns: 0 };
  for (const p of points) n[p.status]++;
  const rows: Array<[string, string]> = [
    [COLORS.up, `Up (${n.up.toLocaleString('en-US')})`],
    [COLORS.down, `Down (${n.down.toLocaleString('en-US')})`],
    [COLORS.ns, `Not significant (${n.ns.toLocaleString('en-US')})`],
  ];
  const x = W - f.right + 14;
  const items = rows.map(
    ([c, t], i) =>
      `<circle cx="${x + 6}" cy="${f.top + 12 + i * 22}" r="6" fill="${c}"/><text x="${x + 18}" y="${f.top + 12 + i * 22}" dominant-baseline="middle" class="legend">${esc(t)}</text>`,
  );
  // The note wraps onto short lines: the legend column is narrow.
  const words = (note ?? '').split(' ').filter(Boolean);
  const noteLines: string[] = [];
  for (const w of words) {
    const last = noteLines[noteLines.length - 1];
    if (last !== undefined && `${last} ${w}`.length <= 24) noteLines[noteLines.length - 1] = `${last} ${w}`;
    else noteLines.push(w);
  }
  noteLines.forEach((l, i) => {
    items.push(
      `<text x="${x}" y="${f.top + 12 + (rows.length + 0.6 + i * 0.8) * 22}" dominant-baseline="middle" class="subtitle">${esc(l)}</text>`,
    );
  });
  return items.join('\n');
}

function frame(x0: number, x1: number, y0: number, y1: number): Frame {
  return { width: W, height: H, left: 70, right: 190, top: 64, bottom: 56, x0, x1, y0, y1 };
}

function header(o: PlotOptions): string {
  return `<text x="70" y="28" class="title">${esc(o.title)}</text>${o.subtitle ? `<text x="70" y="48" class="subtitle">${esc(o.subtitle)}</text>` : ''}`;
}

function dots(pts: Array<[number, number, string]>): string {
  // Grey first so coloured points sit on top.
  const order = (c: string) => (c === COLORS.ns ? 0 : 1);
  return dedupePixels(pts)
    .sort((a, b) => order(a[2]) - order(b[2]))
    .map(
      ([x, y, c]) =>
        `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${c === COLORS.ns ? 2 : 2.8}" fill="${c}" fill-opacity="${c === COLORS.ns ? 0.6 : 0.85}"/>`,
    )
    .join('');
}

function svgDoc(body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img">\n${STYLE}\n<rect width="${W}" height="${H}" fill="#ffffff"/>\n${body}\n</svg>\n`;
}

export function volcanoSvg(points: PlotPoint[], o: PlotOptions): string {
  const yOf = (p: PlotPoint) => -Math.log10(Math.max(p.pValue, 1e-300));
  let xmax = o.minAbsLog2FoldChange * 1.5;
  let ymax = 2;
  for (const p of points) {
    if (Number.isFinite(p.log2FoldChange)) xmax = Math.max(xmax, Math.abs(p.log2FoldChange));
    if (Number.isFinite(p.pValue)) ymax = Math.max(ymax, yOf(p));
  }
  const f = frame(-xmax * 1.05, xmax * 1.05, 0, ymax * 1.06);
  const color = (s: PlotPoint['status']) => COLORS[s];
  const pts: Array<[number, number, string]> = points
    .filter((p) => Number.isFinite(p.log2FoldChange) && Number.isFinite(p.pValue))
    .map((p) => [px(f, p.log2FoldChange), py(f, yOf(p)), color(p.status)]);
  const lines: string[] = [];
  const fcx = o.minAbsLog2FoldChange;
  if (fcx > 0) {
    for (const v of [-fcx, fcx])
      lines.push(
        `<line x1="${px(f, v).toFixed(1)}" y1="${f.top}" x2="${px(f, v).toFixed(1)}" y2="${H - f.bottom}" class="threshold"/>`,
      );
    lines.push(
      `<text x="${(px(f, fcx) + 4).toFixed(1)}" y="${f.top + 14}" class="subtitle">|log2 FC| = ${fmt(fcx)}</text>`,
    );
  }
  if (o.pValueLine !== undefined && o.pValueLine > 0) {
    const y = py(f, -Math.log10(o.pValueLine)).toFixed(1);
    lines.push(`<line x1="${f.left}" y1="${y}" x2="${W - f.right}" y2="${y}" class="threshold"/>`);
    lines.push(`<text x="${f.left + 6}" y="${Number(y) - 6}" class="subtitle">${esc(o.pValueLineLabel ?? '')}</text>`);
  }
  const byLabel = new Map(points.map((p) => [p.label, p]));
  const labels = o.highlight
    .map((l) => byLabel.get(l))
    .filter((p): p is PlotPoint => !!p && Number.isFinite(p.pValue))
    .map((p) => ({ x: px(f, p.log2FoldChange), y: py(f, yOf(p)), text: p.label }));
  return svgDoc(
    [
      header(o),
      axes(f, 'log2 fold change (case / control)', '-log10 p-value'),
      dots(pts),
      lines.join('\n'),
      placeLabels(labels, f),
      legend(points, f, labels.length ? o.highlightNote : undefined),
    ].join('\n'),
  );
}

export function maSvg(points: PlotPoint[], o: PlotOptions): string {
  let xmin = Infinity;
  let xmax = -Infinity;
  let ymax = o.minAbsLog2FoldChange * 1.5;
  for (const p of points) {
    if (!Number.isFinite(p.averageExpression) || !Number.isFinite(p.log2FoldChange)) continue;
    xmin = Math.min(xmin, p.averageExpression);
    xmax = Math.max(xmax, p.averageExpression);
    ymax = Math.max(ymax, Math.abs(p.log2FoldChange));
  }
  if (!Number.isFinite(xmin)) {
    xmin = 0;
    xmax = 1;
  }
  const pad = (xmax - xmin) * 0.03 || 1;
  const f = frame(xmin - pad, xmax + pad, -ymax * 1.08, ymax * 1.08);
  const pts: Array<[number, number, string]> = points
    .filter((p) => Number.isFinite(p.averageExpression) && Number.isFinite(p.log2FoldChange))
    .map((p) => [px(f, p.averageExpression), py(f, p.log2FoldChange), COLORS[p.status]]);
  const lines = [
    `<line x1="${f.left}" y1="${py(f, 0).toFixed(1)}" x2="${W - f.right}" y2="${py(f, 0).toFixed(1)}" stroke="#444" stroke-width="1"/>`,
  ];
  if (o.minAbsLog2FoldChange > 0) {
    for (const v of [-o.minAbsLog2FoldChange, o.minAbsLog2FoldChange]) {
      lines.push(
        `<line x1="${f.left}" y1="${py(f, v).toFixed(1)}" x2="${W - f.right}" y2="${py(f, v).toFixed(1)}" class="threshold"/>`,
      );
    }
  }
  const byLabel = new Map(points.map((p) => [p.label, p]));
  const labels = o.highlight
    .map((l) => byLabel.get(l))
    .filter((p): p is PlotPoint => !!p && Number.isFinite(p.averageExpression))
    .map((p) => ({ x: px(f, p.averageExpression), y: py(f, p.log2FoldChange), text: p.label }));
  return svgDoc(
    [
      header(o),
      axes(f, o.expressionLabel ?? 'average expression', 'log2 fold change (case / control)'),
      dots(pts),
      lines.join('\n'),
      placeLabels(labels, f),
      legend(points, f, labels.length ? o.highlightNote : undefined),
    ].join('\n'),
  );
}
