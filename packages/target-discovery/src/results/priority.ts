// The documented priority score used to rank significant genes (README "Priority score").

/** Tier weights: how much a target family's tractability adds to the priority. */
export const TIER_WEIGHT: Record<number, number> = { 1: 1, 2: 0.7, 3: 0.4, 4: 0 };

/** Points (of 100) a safety-panel target loses: a tier-1 liability then ranks like a tier-3 gene. */
export const SAFETY_PENALTY = 0.1;

/**
 * priority = 100 x max(0, 0.4 S + 0.4 E + 0.2 D - 0.1 L) with druggability, 100 x (0.5 S + 0.5 E) without, where
 *   S = min(1, -log10(p) / 10)   with p the p-value the thresholds use (adjusted by default),
 *   E = min(1, |log2 FC| / 3)    (an 8-fold change saturates),
 *   D = tier weight (1, 0.7, 0.4, 0 for tiers 1-4; 0 when the gene is not in the table),
 *   L = 1 for a safety liability (a Bowes et al. 2012 panel target such as hERG/KCNH2), else 0.
 */
export function priorityScore(
  p: number,
  log2FoldChange: number,
  tier: number | null | undefined,
  withDruggability: boolean,
  safetyLiability = false,
): number {
  const s = Math.min(1, -Math.log10(Math.max(p, 1e-300)) / 10);
  const e = Math.min(1, Math.abs(log2FoldChange) / 3);
  if (!withDruggability) return round(100 * (0.5 * s + 0.5 * e));
  const d = tier ? (TIER_WEIGHT[tier] ?? 0) : 0;
  const l = safetyLiability ? SAFETY_PENALTY : 0;
  return round(100 * Math.max(0, 0.4 * s + 0.4 * e + 0.2 * d - l));
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
