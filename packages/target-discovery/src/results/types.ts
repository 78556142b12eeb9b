// The results document's shape (snake_case: it crosses the wire as JSON).
import type { TargetFamily } from '../druggability/table.js';
import type { ExcludedSample } from '../pipeline/dataset.js';
import type { PipelineReport } from '../pipeline/differential-expression.js';
import type { FeatureTable } from './table.js';

export interface Druggability {
  family: TargetFamily;
  tier: 1 | 2 | 3 | 4;
  druggable: boolean;
  uniprot: string | null;
  evidence: { go_mf: string[]; pfam: string[] };
}

export interface Target {
  rank: number;
  feature_id: string;
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
}

export interface DiscoveryResult {
  summary: DiscoverySummary;
  targets: Target[];
  plots: { volcano_svg: string; ma_svg: string };
  /** Every tested feature (the CSV download). */
  table: FeatureTable;
}
