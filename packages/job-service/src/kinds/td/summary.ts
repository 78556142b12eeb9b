// The terminal summary of a discovery result: the counts and the top targets (the full table is the CSV).
import type { DiscoveryResult, EnrichmentResult } from '@evident/target-discovery';
import { fmt, textTable } from '../../cli/table.js';

export function summarizeDiscovery(result: DiscoveryResult & { enrichment?: EnrichmentResult }, top: number): string[] {
  const targets = summarizeTargets(result, top);
  return result.enrichment ? [...targets, ...summarizeEnrichment(result.enrichment, top)] : targets;
}

/** The most significant sets over every method and collection (smallest p first), one line each. */
function summarizeEnrichment(e: EnrichmentResult, top: number): string[] {
  const tested = Object.entries(e.summary.sets_tested)
    .map(([c, n]) => `${n} ${c}`)
    .join(', ');
  const head = `gene-set enrichment (${e.summary.methods.join(', ')}): ${tested || 'no'} sets tested`;
  if (e.rows.length === 0) return [head, 'no gene set was tested'];
  const best = [...e.rows].sort((a, b) => a.p_value - b.p_value).slice(0, top);
  const rows = best.map((r) => [
    r.method,
    r.collection,
    r.set_id,
    r.set_name.length > 40 ? `${r.set_name.slice(0, 39)}…` : r.set_name,
    r.size,
    r.direction,
    fmt(r.p_value, 2),
    fmt(r.fdr, 2),
  ]);
  return [
    head,
    `top ${rows.length} of ${e.rows.length} sets (full table: --enrichment-csv):`,
    ...textTable(['method', 'collection', 'set', 'name', 'size', 'dir', 'P', 'FDR'], rows),
  ];
}

function summarizeTargets(result: DiscoveryResult, top: number): string[] {
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
