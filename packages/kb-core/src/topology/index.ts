// The topology stage (README.md): communities, topic hierarchy, density, cross-domain bridges, structural embeddings.
export { TopologyStage } from './stage.js';
export { KbTopologyNotComputedError } from './errors.js';
export type {
  ComputeTopologyOptions,
  EmbeddingResult,
  EmbeddingWarning,
  Topic,
  TopicEntity,
  TopologyLevel,
  TopologyResult,
} from './types.js';
export type { CrossDomainBridge, TopicContents, TopicDensity } from './reads.js';
