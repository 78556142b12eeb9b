// The terminal summary of a generation result: the run's figures and the top molecules.
import type { GenerationResult } from '@evident/compound-generation';
import { fmt, textTable } from '../../cli/table.js';
import { withoutTempPaths } from './tool-messages.js';

const MAX_SMILES = 60;

export function summarizeGeneration(result: GenerationResult, top: number): string[] {
  const s = result.summary;
  const docked = result.docking !== null && result.docking !== undefined;
  const structure = result.target.structure;
  const lines = [
    `${s.returned} of ${s.requested} molecules for ${result.target.uniprot}; mean QED ${fmt(s.mean_qed)}, ` +
      `mean SA ${fmt(s.mean_sa)}; constraints met by ${fmt(s.constraint_pass_rate * 100)}%`,
    docked
      ? `guidance ${result.guidance}: docked into ${structure?.id ?? '?'} chain ${structure?.chain ?? '?'} with ` +
        `${result.docking!.engine} ${result.docking!.version} (${result.docking!.calls} docking calls); ` +
        `mean Vina score ${fmt(s.mean_docking_score ?? 0, 3)} kcal/mol`
      : `guidance ${result.guidance}: no docking`,
    // withoutTempPaths: results stored before tool messages were cleaned may still name a scratch file's path.
    ...(result.warnings ?? []).map((w) => `warning: ${withoutTempPaths(w)}`),
  ];
  const rows = result.molecules
    .slice(0, top)
    .map((m) => [
      m.rank,
      m.smiles.length > MAX_SMILES ? `${m.smiles.slice(0, MAX_SMILES - 1)}…` : m.smiles,
      ...(docked ? [fmt(m.docking_score ?? 0, 3)] : []),
      fmt(m.scores.qed, 2),
      fmt(m.properties.mw, 4),
      fmt(m.properties.logp, 2),
      fmt(m.scores.total, 3),
    ]);
  const header = ['rank', 'smiles', ...(docked ? ['Vina'] : []), 'QED', 'MW', 'logP', 'score'];
  return [...lines, `top ${rows.length}:`, ...textTable(header, rows)];
}
