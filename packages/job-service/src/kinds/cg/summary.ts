// The terminal summary of a generation result: the run's figures and the top molecules.
import type { GenerationResult } from '@evident/compound-generation';
import { fmt, textTable } from '../../cli/table.js';

const MAX_SMILES = 60;

export function summarizeGeneration(result: GenerationResult, top: number): string[] {
  const s = result.summary;
  const lines = [
    `${s.returned} of ${s.requested} molecules for ${result.target.uniprot}; mean QED ${fmt(s.mean_qed)}, ` +
      `mean SA ${fmt(s.mean_sa)}; constraints met by ${fmt(s.constraint_pass_rate * 100)}%`,
  ];
  const rows = result.molecules
    .slice(0, top)
    .map((m) => [
      m.rank,
      m.smiles.length > MAX_SMILES ? `${m.smiles.slice(0, MAX_SMILES - 1)}…` : m.smiles,
      fmt(m.scores.qed, 2),
      fmt(m.properties.mw, 4),
      fmt(m.properties.logp, 2),
      fmt(m.scores.total, 3),
    ]);
  const header = ['rank', 'smiles', 'QED', 'MW', 'logP', 'score'];
  return [...lines, `top ${rows.length}:`, ...textTable(header, rows)];
}
