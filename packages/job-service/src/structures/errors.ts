// The one error of structure resolution: `structure_unavailable`, naming the source and what failed.
import { EvidentError, type Problem } from '@evident/contract';

export const STRUCTURE_UNAVAILABLE = 'structure_unavailable';

/** Which outside service an error is about; the message names it in words. */
export type StructureSourceName = 'rcsb_search' | 'rcsb_files' | 'alphafold_api' | 'alphafold_files';

export const SOURCE_LABEL: Record<StructureSourceName, string> = {
  rcsb_search: 'RCSB PDB search service',
  rcsb_files: 'RCSB PDB file service',
  alphafold_api: 'AlphaFold DB API',
  alphafold_files: 'AlphaFold DB file service',
};

/**
 * A structure could not be had. `status` 502 when a source failed (unreachable, timed out, a non-2xx answer, a
 * malformed or oversized answer): running again later may succeed. `status` 422 when the sources answered and
 * there is nothing to have (no such entry, no AlphaFold model): running again cannot help.
 */
export class StructureUnavailableError extends EvidentError {
  readonly source: StructureSourceName;
  /** True when the failure may pass (the source was down or answered badly), false when the answer was "none". */
  readonly transient: boolean;

  constructor(
    source: StructureSourceName,
    what: string,
    options: { transient: boolean; problems?: Problem[]; cause?: unknown },
  ) {
    super(STRUCTURE_UNAVAILABLE, `${SOURCE_LABEL[source]}: ${what}`, {
      status: options.transient ? 502 : 422,
      ...(options.problems ? { problems: options.problems } : {}),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.source = source;
    this.transient = options.transient;
  }
}
