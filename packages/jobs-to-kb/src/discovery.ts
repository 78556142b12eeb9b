// A target-discovery job's findings as claims: each listed target is up- or down-regulated in the case condition
// relative to the control, as the job's request defined them.
import type { JobStatus } from '@evident/job-service';
import type { ClaimInput } from '@evident/kb';
import { confidenceFromAdjustedP } from './confidence.js';
import { enrichmentClaims } from './enrichment.js';
import { unexpectedResults } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { jobProvenance } from './provenance.js';
import { optionalNumber, optionalString, Reader } from './shape.js';

export interface DiscoveryPayload {
  log2_fold_change: number;
  adj_p_value: number;
  average_expression: number;
  method: string;
  priority_score: number;
  /** 1 (most tractable) .. 4; null when the job did not classify druggability or the gene is not in its table. */
  druggability_tier: number | null;
  rank: number;
  feature_id: string;
  case_value: string;
  control_value: string;
}

export function discoveryClaims(status: JobStatus, results: unknown, o: ResolvedOptions): ClaimInput[] {
  const r = new Reader();
  const doc = r.object(results, '');
  const summary = r.object(doc.summary, '/summary');
  const samples = r.object(summary.samples, '/summary/samples');
  const caseValue = r.string(r.object(samples.case, '/summary/samples/case').value, '/summary/samples/case/value');
  const controlValue = r.string(
    r.object(samples.control, '/summary/samples/control').value,
    '/summary/samples/control/value',
  );
  const method = r.string(r.object(summary.pipeline, '/summary/pipeline').name, '/summary/pipeline/name');
  const targets = r.array(doc.targets, '/targets');
  if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);

  const condition: [string, string] = [o.condition ?? caseValue, o.condition_type];
  const provenance = jobProvenance(status, 'differential_expression', method);
  const claims: ClaimInput[] = [];
  for (const [i, raw] of targets.entries()) {
    const at = `/targets/${i}`;
    const t = r.object(raw, at);
    const payload: DiscoveryPayload = {
      log2_fold_change: r.number(t.log2_fold_change, `${at}/log2_fold_change`),
      adj_p_value: r.number(t.adjusted_p_value, `${at}/adjusted_p_value`),
      average_expression: r.number(t.average_expression, `${at}/average_expression`),
      method,
      priority_score: r.number(t.priority_score, `${at}/priority_score`),
      druggability_tier: optionalNumber((t.druggability as { tier?: unknown } | null)?.tier) ?? null,
      rank: r.number(t.rank, `${at}/rank`),
      feature_id: r.string(t.feature_id, `${at}/feature_id`),
      case_value: caseValue,
      control_value: controlValue,
    };
    if (r.problems.length) throw unexpectedResults(status.job_id, r.problems);
    if (o.min_priority !== undefined && payload.priority_score < o.min_priority) continue;
    // A feature the job could not annotate keeps its own id (an Ensembl id, a probe) as the gene's name.
    const gene = optionalString(t.gene_symbol) ?? payload.feature_id;
    claims.push({
      subject: [gene, 'gene'],
      predicate: [payload.log2_fold_change > 0 ? 'upregulated_in' : 'downregulated_in', 'expression'],
      object: condition,
      provenance,
      confidence: confidenceFromAdjustedP(payload.adj_p_value),
      payload,
    });
  }
  // The job lists targets best first; --top keeps the first N of those that passed --min-priority. Enriched sets
  // (a job run with options.enrichment) follow, FDR < 0.05, neither option applying to them.
  return [
    ...(o.top === undefined ? claims : claims.slice(0, o.top)),
    ...enrichmentClaims(status, doc.enrichment, condition, caseValue, controlValue),
  ];
}
