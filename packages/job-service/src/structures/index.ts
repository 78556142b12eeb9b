// Structure sources: RCSB PDB search and files, AlphaFold DB; a disk cache. The service fetches, the engines
// (protein-structure, docking) only parse what it hands them.
import type { ServiceConfig } from '../config.js';
import { kindSettingsOf } from '../kinds/settings.js';
import { StructureSources } from './sources.js';

export { StructureSources, STRUCTURE_SOURCE_DEFAULTS } from './sources.js';
export type { ResolvedStructure, ResolveOptions, StructureSourcesOptions } from './sources.js';
export type { StructureQuery } from './ids.js';
export type { StructureFormat } from './cache.js';
export { STRUCTURE_UNAVAILABLE, StructureUnavailableError, type StructureSourceName } from './errors.js';

/** The service's sources, from its configuration (the same settings job kinds get); cached under <dataDir>/structures. */
export function structureSourcesFromConfig(config: ServiceConfig): StructureSources {
  return new StructureSources(kindSettingsOf(config).structures);
}
