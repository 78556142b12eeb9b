// Default sources and bounds (config.ts reads them without loading the client).
export const STRUCTURE_SOURCE_DEFAULTS = {
  rcsbSearchUrl: 'https://search.rcsb.org/rcsbsearch/v2/query',
  rcsbFilesUrl: 'https://files.rcsb.org/download/',
  alphafoldApiUrl: 'https://alphafold.ebi.ac.uk/api/prediction/',
  alphafoldFilesUrl: 'https://alphafold.ebi.ac.uk/files/',
  // The largest mmCIF entries (ribosomes, viral capsids) run to tens of MB; 50 MB takes all but a few of them and
  // bounds what one job makes the service hold in memory.
  maxBytes: 50 * 1024 * 1024,
  timeoutMs: 60_000,
  maxCandidates: 5,
} as const;
