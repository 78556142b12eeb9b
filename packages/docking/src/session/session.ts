// A docking run against one receptor: the receptor is prepared (or taken as PDBQT) and written once into the
// session's scratch directory, then any number of ligands are prepared and docked against it, at most
// `concurrency` at a time. Each ligand works in its own subdirectory, removed when it is done; close() removes the
// rest. An AbortSignal on the session or on one call kills the child processes it concerns.
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import { DockingAbortedError, DockingFailedError } from '../errors.js';
import { type Box, checkInt, DOCKING_LIMITS, Problems } from '../limits.js';
import { type PreparedLigand, prepareLigand } from '../prepare/ligand.js';
import { type PreparedReceptor, prepareReceptor } from '../prepare/receptor.js';
import { makeTempDir, removeDir } from '../process/temp.js';
import { type DockingTools, findDockingTools } from '../tools/find.js';
import { checkLigandPdbqt, checkReceptorPdbqt, type DockResult, dockInDir, scoreInDir } from '../vina/dock.js';
import { mapsCover, writeMaps } from '../vina/maps.js';
import { checkBox, checkSearch, type VinaSearchOptions } from '../vina/options.js';
import type { ScoreOnlyResult } from '../vina/parse.js';

export interface DockingSessionOptions extends VinaSearchOptions {
  /** Protein PDB text (prepared here with Open Babel) or an already prepared rigid receptor PDBQT. */
  receptor: { pdb: string } | { pdbqt: string };
  box: Box;
  /** Ligands in flight at once. Default: cores − 1, at least 1 (each Vina runs with `cpu` threads, default 1). */
  concurrency?: number;
  /** pH for receptor and ligand protonation (default 7.4). */
  ph?: number;
  /** Aborts everything the session does. */
  signal?: AbortSignal;
  tools?: DockingTools;
  /**
   * Compute Vina's grid maps once for the session (in its directory) and load them for each docking
   * (`vina --maps`) instead of recomputing them per call. Default false: Vina then has no receptor, so the
   * affinities it reports are read off the grid, not computed exactly as without maps; on the same pose they
   * came out 0.36–0.45 kcal/mol less negative (README "Cost"). Ligands with an atom type the maps do not cover
   * (B, Si, metals) are docked the usual way.
   */
  reuseMaps?: boolean;
}

export interface LigandCallOptions extends VinaSearchOptions {
  /** Names the ligand in errors. */
  id?: string;
  signal?: AbortSignal;
}

export interface SmilesDocking {
  ligand: PreparedLigand;
  docking: DockResult;
}

export function defaultConcurrency(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Prepared ligands a session keeps (oldest dropped first): a few MB of PDBQT at most. */
const PREPARED_LIGANDS_KEPT = 2000;

export class DockingSession {
  private closed = false;
  private readonly ligands = new Map<string, PreparedLigand>();
  private seq = 0;
  private maps: Promise<string> | undefined;

  private constructor(
    /** The session's scratch directory (receptor file, one subdirectory per ligand in flight); gone after close(). */
    readonly dir: string,
    private readonly receptorPath: string,
    readonly receptor: PreparedReceptor,
    readonly box: Box,
    private readonly defaults: VinaSearchOptions & { ph?: number },
    private readonly limit: LimitFunction,
    readonly tools: DockingTools,
    private readonly signal: AbortSignal | undefined,
    private readonly reuseMaps: boolean,
  ) {}

  static async open(options: DockingSessionOptions): Promise<DockingSession> {
    const p = new Problems();
    const rec = options.receptor as { pdb?: unknown; pdbqt?: unknown } | undefined;
    if (!rec || typeof rec !== 'object' || (rec.pdb === undefined) === (rec.pdbqt === undefined)) {
      p.add('/receptor', 'must be { pdb } or { pdbqt }');
    } else if (rec.pdbqt !== undefined) checkReceptorPdbqt(rec.pdbqt, '/receptor/pdbqt', p);
    checkBox(options.box, '/box', p);
    checkSearch(options, p);
    checkInt(options.concurrency, '/concurrency', 1, DOCKING_LIMITS.cpuMax, p);
    p.throwIfAny();
    if (options.signal?.aborted) throw new DockingAbortedError('docking session');
    const tools = options.tools ?? (await findDockingTools());
    const common = { tools, ...(options.signal ? { signal: options.signal } : {}) };
    const receptor: PreparedReceptor =
      'pdbqt' in options.receptor
        ? { pdbqt: options.receptor.pdbqt, atoms: 0, warnings: [] }
        : await prepareReceptor(options.receptor.pdb, {
            ...common,
            ...(options.ph === undefined ? {} : { ph: options.ph }),
          });
    if (receptor.atoms === 0)
      receptor.atoms = receptor.pdbqt.split('\n').filter((l) => /^(ATOM {2}|HETATM)/.test(l)).length;
    const dir = await makeTempDir('session');
    try {
      const receptorPath = join(dir, 'receptor.pdbqt');
      await writeFile(receptorPath, receptor.pdbqt);
      const { seed, exhaustiveness, numModes, energyRange, cpu, timeoutMs, ph } = options;
      const defaults = Object.fromEntries(
        Object.entries({ seed, exhaustiveness, numModes, energyRange, cpu, timeoutMs, ph }).filter(
          ([, v]) => v !== undefined,
        ),
      );
      const limit = pLimit(options.concurrency ?? defaultConcurrency());
      const reuse = options.reuseMaps ?? false;
      return new DockingSession(
        dir,
        receptorPath,
        receptor,
        options.box,
        defaults,
        limit,
        tools,
        options.signal,
        reuse,
      );
    } catch (e) {
      await removeDir(dir);
      throw e;
    }
  }

  /** Ligands waiting for a slot plus those running. */
  get pending(): number {
    return this.limit.pendingCount + this.limit.activeCount;
  }

  /** Prepares a SMILES (protonation, 3D, PDBQT) and docks it. */
  dockSmiles(smiles: string, options: LigandCallOptions = {}): Promise<SmilesDocking> {
    return this.run('docking', options, async (dir, signal) => {
      const ligand = await this.preparedLigand(smiles, options, signal);
      const docking = await this.dockOne(dir, ligand.pdbqt, options, signal);
      return { ligand, docking };
    });
  }

  /**
   * A SMILES prepared once per session: the 3D build is most of a ligand's preparation (packages/docking README,
   * "Cost"), and a generator docks the same molecule again at a higher exhaustiveness. Failures are not kept.
   */
  private async preparedLigand(
    smiles: string,
    options: LigandCallOptions,
    signal: AbortSignal | undefined,
  ): Promise<PreparedLigand> {
    const known = this.ligands.get(smiles);
    if (known) return known;
    const ph = this.defaults.ph;
    const ligand = await prepareLigand(smiles, {
      tools: this.tools,
      ...(signal ? { signal } : {}),
      ...(options.id === undefined ? {} : { id: options.id }),
      ...(ph === undefined ? {} : { ph }),
    });
    if (this.ligands.size >= PREPARED_LIGANDS_KEPT) this.ligands.delete(this.ligands.keys().next().value!);
    this.ligands.set(smiles, ligand);
    return ligand;
  }

  /** Docks a prepared ligand PDBQT. */
  dockLigand(pdbqt: string, options: LigandCallOptions = {}): Promise<DockResult> {
    const p = new Problems();
    checkLigandPdbqt(pdbqt, '/ligand', p);
    checkSearch(options, p);
    p.throwIfAny();
    return this.run('docking', options, (dir, signal) => this.dockOne(dir, pdbqt, options, signal));
  }

  private async dockOne(
    dir: string,
    pdbqt: string,
    options: LigandCallOptions,
    signal: AbortSignal | undefined,
  ): Promise<DockResult> {
    const maps = this.reuseMaps && mapsCover(pdbqt) ? await this.sessionMaps(signal) : undefined;
    const o = this.callOptions(pdbqt, options, signal);
    return dockInDir(dir, this.receptorPath, maps ? { ...o, maps } : o, this.tools);
  }

  /**
   * The session's map prefix, written by the first docking that needs it; later ones wait for it. A failed or
   * aborted write is forgotten so the next docking tries again.
   */
  private sessionMaps(signal: AbortSignal | undefined): Promise<string> {
    this.maps ??= writeMaps(join(this.dir, 'maps'), this.receptorPath, this.box, this.tools, {
      ...(this.signal ? { signal: this.signal } : {}),
    }).catch((e: unknown) => {
      this.maps = undefined;
      throw e;
    });
    if (!signal) return this.maps;
    // One caller's abort must not kill the shared write; it only stops waiting.
    const maps = this.maps;
    return new Promise<string>((resolve, reject) => {
      if (signal.aborted) return reject(new DockingAbortedError('grid maps'));
      const onAbort = () => reject(new DockingAbortedError('grid maps'));
      signal.addEventListener('abort', onAbort, { once: true });
      maps.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** `vina --score_only` of one pose against the session's receptor, on the session's box. */
  scoreOnly(pdbqt: string, options: { id?: string; signal?: AbortSignal } = {}): Promise<ScoreOnlyResult> {
    const p = new Problems();
    checkLigandPdbqt(pdbqt, '/ligand', p);
    p.throwIfAny();
    return this.run('score only', options, (dir, signal) =>
      scoreInDir(
        dir,
        this.receptorPath,
        { ligand: pdbqt, box: this.box, ...(options.id ? { id: options.id } : {}), ...(signal ? { signal } : {}) },
        this.tools,
      ),
    );
  }

  /** Removes the scratch directory. Calls still queued then fail; wait for running ones before closing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await removeDir(this.dir);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private callOptions(ligand: string, o: LigandCallOptions, signal: AbortSignal | undefined) {
    const { ph: _ph, ...search } = this.defaults;
    const { id, signal: _s, ...mine } = o;
    return {
      ...search,
      ...Object.fromEntries(Object.entries(mine).filter(([, v]) => v !== undefined)),
      ligand,
      box: this.box,
      ...(id === undefined ? {} : { id }),
      ...(signal ? { signal } : {}),
    };
  }

  /**
   * Runs `work` in a fresh subdirectory when a slot is free. A call aborted while it waits rejects at once
   * (it then does nothing when its turn comes).
   */
  private run<T>(
    step: string,
    o: { id?: string; signal?: AbortSignal },
    work: (dir: string, signal: AbortSignal | undefined) => Promise<T>,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new DockingFailedError('the docking session is closed', { step }));
    const signals = [this.signal, o.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    if (signal?.aborted) return Promise.reject(new DockingAbortedError(step));
    const id = ++this.seq;
    const task = this.limit(async () => {
      if (signal?.aborted) throw new DockingAbortedError(step);
      if (this.closed) throw new DockingFailedError('the docking session is closed', { step });
      const dir = join(this.dir, `ligand-${id}`);
      await mkdir(dir);
      try {
        return await work(dir, signal);
      } finally {
        await removeDir(dir);
      }
    });
    if (!signal) return task;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new DockingAbortedError(step));
      signal.addEventListener('abort', onAbort, { once: true });
      task.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}
