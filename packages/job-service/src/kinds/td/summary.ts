// The terminal summary of a discovery result: the counts and the top targets (the full table is the CSV).
import type { DiscoveryResult } from '@evident/target-discovery';
import { fmt, textTable } from '../../cli/table.js';

export function summarizeDiscovery(result: DiscoveryResult, top: number): string[] {
  const s = result.summary;
  const lines = [
    `${s.features_tested} features tested; ${s.significant} significant (${s.up} up, ${s.down} down); ` +
      `design ${s.design.formula}`,
    ...s.warnings.map((w) => `warning: ${w}`),
  ];
  const rows = result.targets.slice(0, top).map((t) => [
    t.rank,
    t.gene_symbol ?? t.feature_id,
    fmt(t.log2_fold_change),
    fmt(t.adjusted_p_value, 2),
    // A safety-panel gene (hERG, ...) is marked where a reader scans the tiers.
    t.druggability ? `${t.druggability.tier}${t.druggability.safety_liability ? '!' : ''}` : '-',
    t.druggability?.family ?? '-',
    fmt(t.priority_score),
  ]);
  if (rows.length === 0) return [...lines, 'no target passed the thresholds'];
  const header = ['rank', 'gene', 'log2FC', 'adj.P', 'tier', 'family', 'priority'];
  const flagged = result.targets.slice(0, top).some((t) => t.druggability?.safety_liability);
  const note = flagged ? ['! safety liability (Bowes et al. 2012 panel): see safety_concern in the results'] : [];
  return [...lines, `top ${rows.length} of ${result.targets.length} targets:`, ...textTable(header, rows), ...note];
}
