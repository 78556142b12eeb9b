// @evident/jobs-to-kb: from a finished discovery job to provenanced claims in an Evident KB. See README.md.
export { exportToKb, claimsFromJob, namesFromJob, type ExportResult } from './export.js';
export { CONDITION_TYPES, type ExportOptions, type ConditionType } from './options.js';
export { geneSymbolOf, moleculeLabel, namesNamespace, type Names } from './names.js';
export { confidenceFromAdjustedP, confidenceFromDocking, DESIGN_CONFIDENCE } from './confidence.js';
export { ensurePredicates, EXPORT_PREDICATES, EXPORT_VOCABULARY } from './predicates.js';
export { sourceIdOf, SOURCE_PREFIX } from './provenance.js';
export { ExportError } from './errors.js';
export type { DiscoveryPayload } from './discovery.js';
export { ENRICHED_IN, ENRICHMENT_FDR, type EnrichmentPayload } from './enrichment.js';
export type { DesignPayload } from './design.js';
