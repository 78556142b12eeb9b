// The top-1 and top-10 mean curves of a run against oracle calls (PMO's figure of merit is the area under the
// top-10 one), and a small hand-written SVG plot of them.

export interface CurvePoint {
  calls: number;
  top1: number;
  top10_mean: number;
}

/** The curves read after every `step` calls and at the last call (step: so that a plot has at most ~`points`). */
export function topCurves(scores: readonly number[], points = 400): CurvePoint[] {
  const step = Math.max(1, Math.ceil(scores.length / points));
  const best: number[] = []; // the 10 best so far, descending
  const out: CurvePoint[] = [{ calls: 0, top1: 0, top10_mean: 0 }];
  scores.forEach((s, i) => {
    if (best.length < 10 || s > best[best.length - 1]!) {
      let j = best.length;
      while (j > 0 && best[j - 1]! < s) j--;
      best.splice(j, 0, s);
      if (best.length > 10) best.pop();
    }
    const n = i + 1;
    if (n % step === 0 || n === scores.length) {
      out.push({ calls: n, top1: best[0]!, top10_mean: best.reduce((a, b) => a + b, 0) / best.length });
    }
  });
  return out;
}

const W = 640;
const H = 400;
const M = { left: 64, right: 24, top: 36, bottom: 52 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (v: number) => (Math.round(v * 100) / 100).toString();

/** Round tick values covering [lo, hi]. */
function ticks(lo: number, hi: number, count = 5): number[] {
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** An SVG line plot of the top-1 and top-10 mean curves; x runs to the budget. */
export function curvesSvg(curve: readonly CurvePoint[], budget: number, title: string): string {
  const values = curve.flatMap((p) => [p.top1, p.top10_mean]);
  let lo = Math.min(0, ...values);
  let hi = Math.max(...values);
  if (!(hi > lo)) hi = lo + 1;
  if (hi <= 1 && lo >= 0) hi = 1; // profiles score in [0, 1]: show the whole range
  const pad = (hi - lo) * 0.02;
  lo -= lo < 0 ? pad : 0;
  hi += pad;
  const x = (c: number) => M.left + (c / budget) * (W - M.left - M.right);
  const y = (v: number) => H - M.bottom - ((v - lo) / (hi - lo)) * (H - M.top - M.bottom);
  const path = (key: 'top1' | 'top10_mean') =>
    curve.map((p, i) => `${i ? 'L' : 'M'}${num(x(p.calls))},${num(y(p[key]))}`).join(' ');
  const xTicks = ticks(0, budget);
  const yTicks = ticks(lo, hi);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`,
    ...yTicks.map(
      (v) =>
        `<line x1="${M.left}" x2="${W - M.right}" y1="${num(y(v))}" y2="${num(y(v))}" stroke="#e5e5e5"/>` +
        `<text x="${M.left - 6}" y="${num(y(v) + 4)}" text-anchor="end">${v}</text>`,
    ),
    ...xTicks.map(
      (c) =>
        `<line x1="${num(x(c))}" x2="${num(x(c))}" y1="${H - M.bottom}" y2="${H - M.bottom + 4}" stroke="black"/>` +
        `<text x="${num(x(c))}" y="${H - M.bottom + 18}" text-anchor="middle">${c}</text>`,
    ),
    `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="black"/>`,
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}" stroke="black"/>`,
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">oracle calls</text>`,
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">score</text>`,
    `<path class="top1" d="${path('top1')}" fill="none" stroke="#d62728" stroke-width="2"/>`,
    `<path class="top10" d="${path('top10_mean')}" fill="none" stroke="#1f77b4" stroke-width="2"/>`,
    `<g transform="translate(${W - M.right - 130} ${M.top + 14})">`,
    '<line x1="0" x2="20" y1="-4" y2="-4" stroke="#d62728" stroke-width="2"/><text x="26" y="0">top-1</text>',
    '<line x1="0" x2="20" y1="14" y2="14" stroke="#1f77b4" stroke-width="2"/><text x="26" y="18">top-10 mean</text>',
    '</g>',
    '</svg>',
  ];
  return `${parts.join('\n')}\n`;
}
