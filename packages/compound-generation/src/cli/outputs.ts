// What a run leaves in --out: the best molecules (CSV and SDF), the call log, a summary and the curves plot.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OptimizeFigures, OptimizeResult } from '../optimize/types.js';
import { loadRDKit, parseSmiles } from '../rdkit.js';
import { csvField } from '../results.js';
import { callLogCsv } from '../profile/call-log.js';
import { curvesSvg, topCurves } from './curves.js';

export const OUTPUT_FILES = ['top.csv', 'top.sdf', 'calls.csv', 'summary.json', 'curves.svg'] as const;

export interface RunSummary extends OptimizeFigures {
  profile: string;
  /** The optimizer's own time, and the whole command's (loading RDKit and the profile included), seconds. */
  optimize_elapsed_s: number;
  elapsed_s: number;
  endpoints: OptimizeResult['endpoints'];
}

export function summarize(result: OptimizeResult, profile: string, elapsedMs: number): RunSummary {
  return {
    profile,
    strategy: result.strategy,
    seed: result.seed,
    max_oracle_calls: result.max_oracle_calls,
    calls_used: result.calls_used,
    stop_reason: result.stop_reason,
    auc_top1: result.auc_top1,
    auc_top10: result.auc_top10,
    auc_top100: result.auc_top100,
    top1: result.top1,
    top10_mean: result.top10_mean,
    top100_mean: result.top100_mean,
    optimize_elapsed_s: result.elapsed_ms / 1000,
    elapsed_s: Math.round(elapsedMs) / 1000,
    endpoints: result.endpoints,
  };
}

/** top.csv: rank, SMILES, score, the call that scored it, then each endpoint's value and raw value. */
export function topCsv(result: OptimizeResult): string {
  const names = result.endpoints.map((e) => e.name);
  const header = ['rank', 'smiles', 'score', 'call', ...names.flatMap((n) => [n, `${n} (raw)`])];
  const rows = [header.map(csvField).join(',')];
  result.top.forEach((m, i) => {
    const byName = new Map(result.calls[m.call - 1]?.components.map((e) => [e.name, e]));
    const cells: unknown[] = [i + 1, m.smiles, m.score, m.call];
    for (const n of names) cells.push(byName.get(n)?.value ?? '', byName.get(n)?.raw ?? '');
    rows.push(cells.map(csvField).join(','));
  });
  return `${rows.join('\n')}\n`;
}

/** SD-file field values are single lines; an empty value would end the field. */
const sdValue = (v: unknown) => String(v ?? '').replace(/[\r\n]+/g, ' ') || ' ';

/** top.sdf: RDKit mol blocks with 2D coordinates, named by rank, with score, call and SMILES as data fields. */
export async function topSdf(result: OptimizeResult): Promise<string> {
  const rd = await loadRDKit();
  const records: string[] = [];
  result.top.forEach((m, i) => {
    const mol = parseSmiles(rd, m.smiles);
    if (!mol) return; // every scored SMILES is RDKit's own canonical SMILES: not expected
    let block: string;
    try {
      block = mol.get_molblock(); // computes 2D coordinates when the molecule has none
    } finally {
      mol.delete();
    }
    const lines = block.replace(/\s+$/, '').split('\n');
    lines[0] = `rank ${i + 1}`;
    const fields: Array<[string, unknown]> = [
      ['score', m.score],
      ['call', m.call],
      ['smiles', m.smiles],
    ];
    const data = fields.map(([k, v]) => `> <${k}>\n${sdValue(v)}\n`).join('\n');
    records.push(`${lines.join('\n')}\n${data}\n$$$$\n`);
  });
  return records.join('');
}

export async function writeOutputs(dir: string, result: OptimizeResult, summary: RunSummary): Promise<void> {
  const sdf = await topSdf(result);
  const title = `${summary.profile}: ${result.strategy}, seed ${result.seed}`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'top.csv'), topCsv(result));
  writeFileSync(join(dir, 'top.sdf'), sdf);
  writeFileSync(join(dir, 'calls.csv'), callLogCsv(result.endpoints, result.calls));
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const curve = topCurves(result.calls.map((c) => c.score));
  writeFileSync(join(dir, 'curves.svg'), curvesSvg(curve, result.max_oracle_calls, title));
}
