// Docking inside the search: the fast surrogate (QED, SA, constraints, alerts, and an estimate of the docking
// score) ranks every candidate; each round docks the most promising undocked candidates, and their Vina scores
// feed back into selection through the estimate. The estimate starts from the surrogate's own site term (the
// residue heuristic, put on the docked scale by a trend learnt from the docked molecules' size and shape
// descriptors: docking-trend.ts) and corrects it by the residuals from that trend of the nearest docked neighbours (Morgan r=2 Tanimoto), shrunk by how much
// neighbour evidence there is: a molecule with no close docked analogue keeps the surrogate's ranking, one with
// several close analogues follows what docking measured. A plain neighbour average replaced the surrogate
// outright and, with a few dozen docked molecules, was mostly noise that steered the search away from what the
// surrogate finds (README "Benchmark"). Every call docks at the requested exhaustiveness, so every
// docked molecule can be returned with the score and pose it got: a cheaper search level saves little CPU per
// call (ligand preparation and grid maps dominate at low exhaustiveness; packages/docking README, "Cost") and
// its scores could only guide, never be reported, which narrows the field the returned set is chosen from.
// Every docking call counts once against the run's budget.
import { tanimoto } from '../chem/fingerprint.js';
import { enumerateStereoisomers } from '../chem/stereo.js';
import type { RDKit } from '../rdkit.js';
import type { Evaluated } from '../scoring/evaluate.js';
import type { DockingPort } from '../target/port.js';
import { DockingTrend } from './docking-trend.js';

export interface DockingRecord {
  /** The isomeric SMILES that was docked best (the molecule's own when it has no unspecified stereo). */
  smiles: string;
  score: number;
  pose_sdf: string;
  contacts: string[];
  /** Stereoisomers docked; each one counts as a docking call. */
  isomers_docked: number;
  /** Scores of every stereoisomer docked, by isomeric SMILES. */
  isomer_scores: Record<string, number>;
  /** True when the molecule had more unspecified stereocentres than the cap allows to enumerate. */
  isomers_capped: boolean;
}

export interface DockingStats {
  budget: number;
  calls: number;
  failures: number;
  rounds: number;
  molecules_docked: number;
  seconds: number;
}

/** A Vina affinity mapped to 0..1 for the score: -5 kcal/mol (weak) -> 0, -11 kcal/mol (strong) -> 1. */
export function dockingTerm(score: number): number {
  return Math.min(1, Math.max(0, (-score - 5) / 6));
}

const NEIGHBOURS = 5;
/** Docked molecules below this similarity are not neighbours: their residuals say nothing about the molecule. */
const MIN_NEIGHBOUR_SIMILARITY = 0.25;
/**
 * Prior strength of the surrogate, in units of neighbour weight (similarity cubed): one docked analogue at 0.8
 * similarity (weight 0.51) moves the estimate half way to what its residual says; analogues at 0.5 (0.125 each)
 * need four to do that. Close analogues dock alike, loose ones barely more alike than any two molecules.
 */
const PRIOR_WEIGHT = 0.5;
/** At most this many stereoisomers are docked per molecule (the rest are reported, not silently dropped). */
export const MAX_ISOMERS = 4;

export class DockingRounds {
  readonly records = new Map<string, DockingRecord>();
  readonly stats: DockingStats;
  /** Per docked molecule: its docking term minus its site term (what docking found beyond the surrogate). */
  private readonly residuals: number[] = [];
  private readonly docked: Evaluated[] = [];
  /** What docking adds to the site term, as a trend on descriptors (refit as molecules are docked). */
  readonly trend = new DockingTrend();

  constructor(
    private readonly rd: RDKit,
    private readonly port: DockingPort,
    budget: number,
    private readonly exhaustiveness: number,
  ) {
    this.stats = { budget, calls: 0, failures: 0, rounds: 0, molecules_docked: 0, seconds: 0 };
  }

  get remaining(): number {
    return this.stats.budget - this.stats.calls;
  }

  isDocked(e: Evaluated): boolean {
    return this.records.has(e.smiles);
  }

  /**
   * Docks the given molecules (each stereoisomer of each), in parallel through the port (which bounds its own
   * concurrency), as far as the budget goes. Returns how many molecules got a record.
   */
  async dock(molecules: Evaluated[], signal?: AbortSignal): Promise<number> {
    const t0 = performance.now();
    const jobs: Array<Promise<void>> = [];
    let docked = 0;
    for (const e of molecules) {
      if (this.records.has(e.smiles)) continue;
      const { isomers, capped } = enumerateStereoisomers(this.rd, e.smiles, { max: MAX_ISOMERS });
      if (isomers.length > this.remaining) break;
      this.stats.calls += isomers.length;
      jobs.push(
        (async () => {
          const results = await Promise.all(
            isomers.map((s) =>
              this.port.dock(s, signal, this.exhaustiveness).then(
                (pose) => ({ s, pose }),
                (err: unknown) => {
                  if (signal?.aborted) throw err;
                  this.stats.failures++;
                  return null;
                },
              ),
            ),
          );
          const ok = results.filter((r): r is NonNullable<typeof r> => r !== null);
          if (ok.length === 0) return;
          ok.sort((a, b) => a.pose.score - b.pose.score || (a.s < b.s ? -1 : 1));
          const best = ok[0]!;
          this.records.set(e.smiles, {
            smiles: best.s,
            score: best.pose.score,
            pose_sdf: best.pose.pose_sdf,
            contacts: best.pose.contacts,
            isomers_docked: isomers.length,
            isomer_scores: Object.fromEntries(ok.map((r) => [r.s, r.pose.score])),
            isomers_capped: capped,
          });
          const residual = dockingTerm(best.pose.score) - e.scores.site_complementarity;
          this.residuals.push(residual);
          this.docked.push(e);
          this.trend.add(e, residual);
          docked++;
        })(),
      );
    }
    await Promise.all(jobs);
    this.stats.molecules_docked = this.records.size;
    this.stats.seconds += (performance.now() - t0) / 1000;
    this.stats.rounds++;
    return docked;
  }

  /** The docking term of a molecule: its own when docked, else the estimate. */
  term(e: Evaluated): { term: number; docked: boolean } {
    const r = this.records.get(e.smiles);
    if (r) return { term: dockingTerm(r.score), docked: true };
    return { term: this.estimate(e), docked: false };
  }

  /** The highest similarity of a molecule to anything docked so far (0 before anything is docked). */
  nearestDocked(e: Evaluated): number {
    let best = 0;
    for (const d of this.docked) best = Math.max(best, tanimoto(e.fp, d.fp));
    return best;
  }

  /**
   * Site term + the trend (the surrogate on the docked scale) + the neighbours' residuals from the trend,
   * weighted by similarity cubed and shrunk towards zero by PRIOR_WEIGHT: a kernel regression on what the
   * trend gets wrong. Before anything is docked it is the site term itself, so the search starts as the
   * surrogate-only GA would.
   */
  private estimate(e: Evaluated): number {
    const site = e.scores.site_complementarity;
    const n = this.docked.length;
    if (n === 0) return site;
    const top: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) {
      const sim = tanimoto(e.fp, this.docked[i]!.fp);
      if (sim < MIN_NEIGHBOUR_SIMILARITY) continue;
      if (top.length < NEIGHBOURS) top.push([sim, i]);
      else {
        let lo = 0;
        for (let j = 1; j < top.length; j++) if (top[j]![0] < top[lo]![0]) lo = j;
        if (sim > top[lo]![0]) top[lo] = [sim, i];
      }
    }
    let wsum = 0;
    let acc = 0;
    for (const [sim, i] of top) {
      const w = sim * sim * sim;
      wsum += w;
      acc += w * (this.residuals[i]! - this.trend.predict(this.docked[i]!));
    }
    return Math.min(1, Math.max(0, site + this.trend.predict(e) + acc / (wsum + PRIOR_WEIGHT)));
  }
}
