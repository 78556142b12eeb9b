// Vina's text output: the seed it used, and the --score_only energy report.

/** `vina --score_only` energies, kcal/mol. */
export interface ScoreOnlyResult {
  /** "Estimated Free Energy of Binding": the intermolecular energy after Vina's torsion normalisation. */
  affinity: number;
  /** "(1) Final Intermolecular Energy". */
  intermolecular: number;
  /** "(2) Final Total Internal Energy" (the ligand's own). */
  intramolecular: number;
  /** "(3) Torsional Free Energy": what the normalisation added. */
  torsional: number;
  /** "(4) Unbound System's Energy": in score-only mode, the input pose's own internal energy. */
  unbound: number;
}

const number = (text: string, label: RegExp): number | undefined => {
  const m = new RegExp(`${label.source}[^:\\n]*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)`).exec(text);
  return m ? Number(m[1]) : undefined;
};

export function parseScoreOnly(stdout: string): ScoreOnlyResult | undefined {
  const affinity = number(stdout, /Estimated Free Energy of Binding/);
  const intermolecular = number(stdout, /\(1\) Final Intermolecular Energy/);
  const intramolecular = number(stdout, /\(2\) Final Total Internal Energy/);
  const torsional = number(stdout, /\(3\) Torsional Free Energy/);
  const unbound = number(stdout, /\(4\) Unbound System's Energy/);
  if (
    affinity === undefined ||
    intermolecular === undefined ||
    intramolecular === undefined ||
    torsional === undefined ||
    unbound === undefined
  ) {
    return undefined;
  }
  return { affinity, intermolecular, intramolecular, torsional, unbound };
}

/** "Performing docking (random seed: 42)" (1.2.3) or "Performing search (random seed: 42)" (1.2.5). */
export function parseSeed(stdout: string): number | undefined {
  const m = /random seed:\s*(-?\d+)/.exec(stdout);
  return m ? Number(m[1]) : undefined;
}
