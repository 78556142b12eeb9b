// StructureSources: a UniProt accession (and optionally a PDB id) to a structure file, at run time.
//
// With a PDB id: that entry. Without: the best few experimental entries RCSB lists for the accession (best
// resolution first, at most `maxCandidates`), downloaded in order, the first that the caller's `covers` accepts;
// when none does (or RCSB lists none), the AlphaFold DB model. AlphaFold is the fallback for "no experimental
// structure covers the residues" only: a source that is down or answers badly ends the resolution with
// `structure_unavailable`, whichever source it is.
import { StructureCache, type StructureFormat } from './cache.js';
import { StructureUnavailableError } from './errors.js';
import { checkQuery, type StructureQuery } from './ids.js';
import type { HttpLimits } from './http.js';
import { downloadEntry, searchEntries, type Downloaded } from './rcsb.js';
import { fetchModel } from './alphafold.js';
import { below, checkBase } from './urls.js';

export { STRUCTURE_SOURCE_DEFAULTS } from './defaults.js';

export interface StructureSourcesOptions {
  /** Where downloaded files are kept: <cacheDir>/pdb/<ID>.<fmt>, <cacheDir>/alphafold/<ACCESSION>.<fmt>. */
  cacheDir: string;
  /** RCSB search endpoint, POSTed to as it is. */
  rcsbSearchUrl: string;
  /** RCSB file service base: <base><ID>.pdb, <base><ID>.cif. */
  rcsbFilesUrl: string;
  /** AlphaFold DB prediction API base: <base><ACCESSION>. */
  alphafoldApiUrl: string;
  /** AlphaFold DB files base: the API's pdbUrl/cifUrl must be under it. */
  alphafoldFilesUrl: string;
  /** Largest structure file accepted, in bytes (decoded), enforced while it streams in. */
  maxBytes: number;
  /** Deadline of each request, headers and body, in milliseconds. */
  timeoutMs: number;
  /** Experimental entries downloaded and offered to `covers` at most, best resolution first. */
  maxCandidates: number;
}

// Search and prediction answers are a few kB; a megabyte is generous.
const JSON_MAX_BYTES = 1024 * 1024;

export interface ResolveOptions {
  /**
   * Does this structure hold the query's residues? Called with each downloaded candidate in turn (not for an
   * explicit pdb_id, nor for the AlphaFold model). An error it throws ends the resolution as it is.
   */
  covers(text: string, id: string, format: StructureFormat): boolean | Promise<boolean>;
  /** Job cancellation: its abort is thrown as its own reason. */
  signal?: AbortSignal | undefined;
}

export interface ResolvedStructure {
  /** PDB id (2SRC) or AlphaFold DB entry id (AF-P12931-F1). */
  id: string;
  source: 'pdb' | 'alphafold';
  format: StructureFormat;
  text: string;
  /** Where the file was (or, when it came from the cache, would be) downloaded from. */
  url: string;
  /** Experimental entries downloaded and refused by `covers`, in the order tried. */
  rejected: string[];
}

interface AlphaFoldCacheEntry {
  id: string;
  url: string;
  format: StructureFormat;
}

export class StructureSources {
  private readonly cache: StructureCache;
  private readonly searchUrl: URL;
  private readonly filesBase: URL;
  private readonly alphafoldApi: URL;
  private readonly alphafoldFiles: URL;

  constructor(private readonly options: StructureSourcesOptions) {
    this.cache = new StructureCache(options.cacheDir);
    this.searchUrl = checkBase('RCSB search URL', options.rcsbSearchUrl, 'endpoint');
    this.filesBase = checkBase('RCSB files URL', options.rcsbFilesUrl);
    this.alphafoldApi = checkBase('AlphaFold DB API URL', options.alphafoldApiUrl);
    this.alphafoldFiles = checkBase('AlphaFold DB files URL', options.alphafoldFilesUrl);
    if (!(options.maxBytes > 0) || !(options.timeoutMs > 0))
      throw new Error('structure sources: maxBytes and timeoutMs must be positive');
    if (!Number.isInteger(options.maxCandidates) || options.maxCandidates < 1 || options.maxCandidates > 100) {
      throw new Error('structure sources: maxCandidates must be an integer in 1..100');
    }
  }

  async resolveStructure(query: StructureQuery, opts: ResolveOptions): Promise<ResolvedStructure> {
    const { accession, pdbId } = checkQuery(query);
    const { signal } = opts;
    const fileLimits: HttpLimits = { maxBytes: this.options.maxBytes, timeoutMs: this.options.timeoutMs, signal };
    const jsonLimits: HttpLimits = { ...fileLimits, maxBytes: Math.min(JSON_MAX_BYTES, this.options.maxBytes) };

    if (pdbId) {
      const entry = await this.entry(pdbId, fileLimits);
      if (!entry) {
        throw new StructureUnavailableError('rcsb_files', `has no entry ${pdbId}`, {
          transient: false,
          problems: [{ path: '/pdb_id', message: `the RCSB PDB has no entry ${pdbId}` }],
        });
      }
      return { id: pdbId, source: 'pdb', ...entry, rejected: [] };
    }

    const ids = await searchEntries(this.searchUrl, accession, this.options.maxCandidates, jsonLimits);
    const rejected: string[] = [];
    for (const id of ids) {
      signal?.throwIfAborted();
      const entry = await this.entry(id, fileLimits);
      if (!entry) {
        throw new StructureUnavailableError('rcsb_files', `has no file for ${id}, which the search service listed`, {
          transient: true,
        });
      }
      signal?.throwIfAborted();
      if (await opts.covers(entry.text, id, entry.format)) return { id, source: 'pdb', ...entry, rejected };
      rejected.push(id);
    }
    signal?.throwIfAborted();
    return { ...(await this.alphafold(accession, jsonLimits, fileLimits)), rejected };
  }

  /** An entry from the cache, else from the file service (then cached); undefined when the service has none. */
  private async entry(id: string, limits: HttpLimits): Promise<Downloaded | undefined> {
    for (const format of ['pdb', 'cif'] as const) {
      const text = await this.cache.read('pdb', id, format);
      if (text !== undefined) return { format, text, url: below(this.filesBase, `${id}.${format}`, 'rcsb_files').href };
    }
    const got = await downloadEntry(this.filesBase, id, limits);
    if (got) await this.cache.write('pdb', id, got.format, got.text);
    return got;
  }

  private async alphafold(
    accession: string,
    jsonLimits: HttpLimits,
    fileLimits: HttpLimits,
  ): Promise<Omit<ResolvedStructure, 'rejected'>> {
    const meta = await this.cache.readJson<AlphaFoldCacheEntry>('alphafold', accession);
    if (meta && (meta.format === 'pdb' || meta.format === 'cif')) {
      const text = await this.cache.read('alphafold', accession, meta.format);
      if (text !== undefined) return { id: meta.id, source: 'alphafold', format: meta.format, text, url: meta.url };
    }
    const model = await fetchModel(this.alphafoldApi, this.alphafoldFiles, accession, jsonLimits, fileLimits);
    // The file first, then the note that names it: a reader that finds the note finds the file.
    await this.cache.write('alphafold', accession, model.format, model.text);
    const entry: AlphaFoldCacheEntry = { id: model.id, url: model.url, format: model.format };
    await this.cache.write('alphafold', accession, 'json', JSON.stringify(entry));
    return { id: model.id, source: 'alphafold', format: model.format, text: model.text, url: model.url };
  }
}
