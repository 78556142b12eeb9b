// How a scoring-profile result reads: a few terminal lines (`evident-jobs results`) and a self-contained page
// (?format=html) with the figures, the top-1 / top-10 curves against calls, and the best molecules.
import { curvesSvg, topCurves } from '@evident/compound-generation';
import { fmt, textTable } from '../../cli/table.js';
import type { CgScoringResult } from './scoring-run.js';

const MAX_SMILES = 60;

export function summarizeScoring(result: CgScoringResult, top: number): string[] {
  const lines = [
    `${result.strategy} for ${result.target.uniprot}: ${result.calls_used} of ${result.max_oracle_calls} oracle ` +
      `calls (${result.stop_reason}); top-1 ${fmt(result.top1, 3)}, top-10 mean ${fmt(result.top10_mean, 3)}; ` +
      `AUC top-10 ${fmt(result.auc_top10, 3)}`,
  ];
  const rows = result.molecules
    .slice(0, top)
    .map((m) => [
      m.rank,
      m.smiles.length > MAX_SMILES ? `${m.smiles.slice(0, MAX_SMILES - 1)}…` : m.smiles,
      fmt(m.score, 3),
      m.call,
    ]);
  return [...lines, `top ${rows.length}:`, ...textTable(['rank', 'smiles', 'score', 'call'], rows)];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderScoringPage(jobId: string, result: CgScoringResult): string {
  const curve = topCurves(result.calls.map((c) => c.score));
  const svg = curvesSvg(curve, result.max_oracle_calls, `${result.strategy}, seed ${result.seed}`);
  const names = result.endpoints.map((e) => e.name);
  const head = ['rank', 'SMILES', 'score', 'call', ...names].map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = result.molecules
    .map((m) => {
      const byName = new Map(m.components.map((e) => [e.name, e]));
      const cells = [
        String(m.rank),
        m.smiles,
        fmt(m.score, 4),
        String(m.call),
        ...names.map((n) => {
          const v = byName.get(n)?.value;
          return typeof v === 'number' ? fmt(v, 4) : String(v ?? '');
        }),
      ];
      return `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Evident: ${escapeHtml(jobId)}</title>
<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left}td:nth-child(2){font-family:monospace}</style>
</head><body>
<h1>Molecules for a scoring profile: ${escapeHtml(result.target.uniprot)}</h1>
<p>${escapeHtml(result.strategy)}, seed ${result.seed}: ${result.calls_used} of ${result.max_oracle_calls} oracle calls
(${escapeHtml(result.stop_reason)}); top-1 ${fmt(result.top1, 3)}, top-10 mean ${fmt(result.top10_mean, 3)};
AUC top-1 ${fmt(result.auc_top1, 3)}, top-10 ${fmt(result.auc_top10, 3)}, top-100 ${fmt(result.auc_top100, 3)}.</p>
${svg}
<table><thead><tr>${head}</tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
