// The results document's shape (snake_case: it crosses the wire as JSON).
import type { TargetFamily, TierSource } from '../druggability/table.js';
import type { AnnotationReport } from '../pipeline/annotate.js';
import type { ExcludedSample } from '../pipeline/dataset.js';
import type { PipelineReport } from '../pipeline/differential-expression.js';
import type { FeatureTable } from './table.js';

export interface Druggability {
  family: TargetFamily;
  /** 1 approved-drug efficacy target, 2 close homologue of one, 3 druggable family, 4 none (Finan et al. 2017). */
  tier: 1 | 2 | 3 | 4;
  /** What the tier rests on, and the evidence in words (drugs, the tier-1 homologue, the family). */
  tier_source: TierSource;
  tier_evidence: string;
  /** Approved medicines acting on the gene (tier 1). */
  drugs: string[];
  druggable: boolean;
  /** A target of the Bowes et al. 2012 safety panel (hERG, ...): the priority score is lowered. */
  safety_liability: boolean;
  /** The panel target and its adverse-effect concern; null when not a safety-panel target. */
  safety_concern: string | null;
  uniprot: string | null;
  evidence: { go_mf: string[]; pfam: string[] };
}

export interface Target {
  rank: number;
  feature_id: string;
  /** The feature that represents the gene (the one tested; equal to feature_id). */
  representative_feature: string;
  /** Every feature of the input measuring this gene, in input order (only itself when unresolved). */
  features: string[];
  gene_symbol: string | null;
  gene_name: string | null;
  entrez_id: string | null;
  uniprot: string | null;
  log2_fold_change: number;
  fold_change: number;
  average_expression: number;
  t: number;
  p_value: number;
  adjusted_p_value: number;
  b: number;
  direction: 'up' | 'down';
  priority_score: number;
  druggability: Druggability | null;
}

export interface DiscoverySummary {
  features_tested: number;
  significant: number;
  up: number;
  down: number;
  pipeline: PipelineReport;
  design: { formula: string; columns: string[]; tested_coefficient: string };
  thresholds: {
    min_fold_change: number;
    min_abs_log2_fold_change: number;
    max_pvalue: number;
    pvalue_type: 'adjusted' | 'raw';
  };
  samples: {
    case: { value: string; ids: string[] };
    control: { value: string; ids: string[] };
    excluded: ExcludedSample[];
  };
  /** Significant genes in a druggable family (tiers 1-3); null when druggability was not requested. */
  druggable_significant: number | null;
  input: {
    orientation: 'features_in_rows' | 'samples_in_rows';
    features: number;
    samples_in_matrix: number;
    missing_values: number;
  };
  targets_listed: number;
  /** Features of the input (before collapsing) and how many resolved to a human gene. */
  features_total: number;
  features_resolved: number;
  annotation: AnnotationReport;
  /** What the user should know: e.g. fewer than half the features resolved, and the option that fixes it. */
  warnings: string[];
}

export interface DiscoveryResult {
  summary: DiscoverySummary;
  targets: Target[];
  plots: { volcano_svg: string; ma_svg: string };
  /** Every tested feature (the CSV download). */
  table: FeatureTable;
}
