// Vina's affinity with the best pose's internal energy as the unbound reference. For its own scoring function
// Vina 1.2 reports each pose as f·(INTER + INTRA − UNBOUND), f = 1 / (1 + w·N_rot), and UNBOUND is meant to be
// the best pose's internal energy, so that the best pose scores f·INTER, as `vina --score_only` scores it.
// Vina 1.2.3 (Debian bookworm's `autodock-vina`) takes UNBOUND from the last pose of its search instead, often a
// strained one the output no longer holds (AutoDock-Vina issue #68, fixed after 1.2.3 by pull request #81): every
// affinity of the run moves by f·(UNBOUND − INTRA_best), by several kcal/mol when that pose was strained, and by a
// different amount for each molecule, so molecules are ranked partly by a discarded pose's strain. Measured
// here: a 24-atom pyrrolopyrimidine docked into c-Src printed −12.93 with UNBOUND +3.17 against its best pose's
// INTRA −0.58, and `--score_only` of that pose gave −9.58, what this module gives.
// Where Vina's reference is right (releases after 1.2.3, or a run that happens to end on the best pose) the
// correction changes nothing.

export interface VinaEnergies {
  affinity: number;
  intermolecular: number;
  intramolecular: number;
  unbound: number;
}

/**
 * Each pose's affinity with the first (best) pose's INTRA as the unbound reference, in the order given. f is
 * recovered from Vina's own figures (affinity = f·(INTER + INTRA − UNBOUND) for every pose; least squares over
 * the poses, since the remarks carry three decimals) rather than from a torsion count and weight of our own.
 */
export function bestPoseUnboundAffinities(poses: readonly VinaEnergies[]): number[] {
  const best = poses[0];
  if (!best) return [];
  let num = 0;
  let den = 0;
  for (const p of poses) {
    const d = p.intermolecular + p.intramolecular - p.unbound;
    num += p.affinity * d;
    den += d * d;
  }
  // No pose with any energy to scale: nothing to correct.
  if (!(den > 1e-6)) return poses.map((p) => p.affinity);
  const f = num / den;
  return poses.map((p) => round3(f * (p.intermolecular + p.intramolecular - best.intramolecular)));
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
