// The docking oracle of bench/docking-opt.ts: one DockingSession per pocket, with two caches that change the
// cost of a call but not what it scores.
// - A prepared ligand (protonation, Open Babel --gen3d, PDBQT: about 8 of a call's 13.5 CPU s) is shared by the
//   pockets: the same conformer is docked into each, as one DockingSession already reuses it within a pocket.
// - A molecule's docking score in a pocket at an exhaustiveness is computed once and kept for every later run
//   (other seeds, other strategies, later sessions through the cache file). --gen3d is not repeatable (packages/
//   docking README, "Reproducibility"), so without this two strategies could get different scores for one
//   molecule; with it the oracle is a fixed function of the SMILES, as PMO's oracles are. A run's budget still
//   counts every distinct molecule it scores, cached or not.
// The score is what smilesDockingPort returns (DockResult.affinity_corrected of the best pose); the pose SDF and
// contact residues it also makes are not part of the score and are not computed.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { DockedPose, DockingPort } from '@evident/compound-generation';
import { type DockingSession, prepareLigand, type Box, type DockingTools } from '@evident/docking';

/**
 * How each Vina run gets the receptor's grid: 'computed' (the standard call: Vina reads the receptor, computes
 * the maps of the ligand's atom types and refines and scores its final poses against the receptor atoms) or
 * 'maps' (the pocket's maps written once per session, DockingSession reuseMaps, and read by every run: search,
 * final refinement and score on the grid). docs/docking-benchmark.md, "Cheaper calls", has what each costs and
 * how their scores agree.
 */
export type GridMode = 'computed' | 'maps';
export const GRID_MODES: readonly GridMode[] = ['computed', 'maps'];

export interface OracleCounters {
  /** Ligands prepared now (the Open Babel 3D build), not read from the cache. */
  fresh_preparations: number;
  /** Vina runs made now. */
  fresh_dockings: number;
  /** Scores taken from the cache (earlier runs, or the same molecule in flight). */
  cached_scores: number;
  failures: number;
}

type Entry =
  | { k: 'ligand'; smiles: string; pdbqt: string | null; error?: string }
  | {
      k: 'score';
      pocket: string;
      exhaustiveness: number;
      /** How Vina got its grid (GridMode); absent in entries written before the option existed: 'computed'. */
      grid?: GridMode;
      smiles: string;
      score: number | null;
      error?: string;
    };

export const newCounters = (): OracleCounters => ({
  fresh_preparations: 0,
  fresh_dockings: 0,
  cached_scores: 0,
  failures: 0,
});

/** Under a heavily shared machine a 3D build can take minutes of wall time: a timeout is not the molecule's. */
export const TIMEOUT_MS = 1_800_000;

/** At most `n` tasks at once (a molecule's preparation and docking hold one slot). */
export function slots(n: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export class DockingCache {
  private readonly ligands = new Map<string, Promise<string | null>>();
  private readonly scores = new Map<string, Promise<number | null>>();
  counters = newCounters();

  /**
   * `file`: JSONL the cache is read from and appended to (undefined: this process only); `ligandFile`: where
   * prepared ligands go (default `file`): the PDBQTs are tens of times the size of the scores, and only the scores
   * are needed to repeat a run.
   */
  constructor(
    readonly tools: DockingTools,
    private readonly file: string | undefined,
    private readonly slot: ReturnType<typeof slots>,
    readonly grid: GridMode = 'computed',
    private readonly ligandFile: string | undefined = file,
  ) {
    for (const f of new Set([file, ligandFile])) if (f) this.load(f);
  }

  private load(file: string) {
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let e: Entry;
      try {
        e = JSON.parse(line) as Entry;
      } catch {
        continue; // a line cut short when a run was stopped
      }
      if (e.k === 'ligand') this.ligands.set(e.smiles, Promise.resolve(e.pdbqt));
      else
        this.scores.set(scoreKey(e.pocket, e.exhaustiveness, e.grid ?? 'computed', e.smiles), Promise.resolve(e.score));
    }
  }

  get size() {
    return { ligands: this.ligands.size, scores: this.scores.size };
  }

  private append(e: Entry) {
    const file = e.k === 'ligand' ? this.ligandFile : this.file;
    if (file) appendFileSync(file, `${JSON.stringify(e)}\n`);
  }

  /** The prepared ligand PDBQT, or null when preparation failed (kept: the oracle stays a fixed function). */
  ligand(smiles: string, signal?: AbortSignal): Promise<string | null> {
    let p = this.ligands.get(smiles);
    if (p) return p;
    p = prepareLigand(smiles, { tools: this.tools, timeoutMs: TIMEOUT_MS, ...(signal ? { signal } : {}) }).then(
      (l) => {
        this.counters.fresh_preparations++;
        this.append({ k: 'ligand', smiles, pdbqt: l.pdbqt });
        return l.pdbqt;
      },
      (err: unknown) => {
        if (signal?.aborted) {
          this.ligands.delete(smiles);
          throw err;
        }
        this.counters.fresh_preparations++;
        this.append({ k: 'ligand', smiles, pdbqt: null, error: errorText(err) });
        return null;
      },
    );
    this.ligands.set(smiles, p);
    return p;
  }

  score(pocket: Pocket, smiles: string, exhaustiveness: number, signal?: AbortSignal): Promise<number | null> {
    const key = scoreKey(pocket.name, exhaustiveness, this.grid, smiles);
    let p = this.scores.get(key);
    if (p) {
      this.counters.cached_scores++;
      return p;
    }
    p = this.slot(async () => {
      const pdbqt = await this.ligand(smiles, signal);
      let score: number | null = null;
      let error: string | undefined = pdbqt === null ? 'ligand preparation failed' : undefined;
      if (pdbqt !== null) {
        try {
          const r = await pocket.session.dockLigand(pdbqt, { exhaustiveness, ...(signal ? { signal } : {}) });
          this.counters.fresh_dockings++;
          score = r.affinity_corrected;
        } catch (err) {
          if (signal?.aborted) {
            this.scores.delete(key);
            throw err;
          }
          this.counters.fresh_dockings++;
          error = errorText(err);
        }
      }
      const grid = this.grid;
      this.append({
        k: 'score',
        pocket: pocket.name,
        exhaustiveness,
        grid,
        smiles,
        score,
        ...(error ? { error } : {}),
      });
      return score;
    });
    this.scores.set(key, p);
    return p;
  }
}

const errorText = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 300);

const scoreKey = (pocket: string, exhaustiveness: number, grid: GridMode, smiles: string) =>
  `${pocket}|${exhaustiveness}|${grid}|${smiles}`;

export interface Pocket {
  name: string;
  session: DockingSession;
  box: Box;
}

/** The profile's DockingPort for one pocket: the cached score; a molecule that cannot be docked rejects. */
export function cachedPort(cache: DockingCache, pocket: Pocket, defaultExhaustiveness: number): DockingPort {
  return {
    async dock(smiles, signal, exhaustiveness): Promise<DockedPose> {
      const score = await cache.score(pocket, smiles, exhaustiveness ?? defaultExhaustiveness, signal);
      if (score === null) {
        cache.counters.failures++;
        throw new Error(`${smiles} could not be docked into ${pocket.name}`);
      }
      return { score, pose_sdf: '', contacts: [] };
    },
    describe: () => ({
      engine: 'AutoDock Vina',
      version: cache.tools.vina.version,
      exhaustiveness: defaultExhaustiveness,
      seed: 1,
      preparation: `Open Babel, pH 7.4; Vina grid: ${cache.grid === 'maps' ? 'maps written once per pocket' : 'computed per run'}`,
    }),
  };
}
