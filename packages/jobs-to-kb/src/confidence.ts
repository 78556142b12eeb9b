// How a finding's figures become a claim's confidence (0..1). Documented in the README; monotone by design, so
// the KB ranks stronger evidence above weaker.

/**
 * Differential expression: `1 - adjusted p-value`, clipped to [0.5, 0.99]. A finding past the job's own cut-off
 * is at least a coin flip, and no single experiment is certainty. A missing or non-finite p-value gives 0.5.
 */
export function confidenceFromAdjustedP(adjP: number): number {
  if (!Number.isFinite(adjP)) return 0.5;
  return Math.min(0.99, Math.max(0.5, 1 - adjP));
}

/**
 * Docking (a score in kcal/mol, lower binds better): 0.5 at -6, +0.1 per kcal/mol stronger, clipped to
 * [0.1, 0.9]; a docking score is a prediction, never a measurement.
 */
export function confidenceFromDocking(score: number): number {
  if (!Number.isFinite(score)) return 0.1;
  return Math.min(0.9, Math.max(0.1, 0.5 + (-score - 6) * 0.1));
}

/** Design: that the job designed the molecule for the target is a record of what it did, not a hypothesis. */
export const DESIGN_CONFIDENCE = 0.99;
