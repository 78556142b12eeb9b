// The KB's nodes and relationships as @evident/cypher sees them: identity and labels at once, the property bag
// built when first read, the few properties filters read most answered without it.
import { GraphNode, GraphRelationship, type Properties, type Value } from '@evident/cypher';
import type { KbCypherGraph } from './graph.js';

/** A node whose property bag is built when first read (KbCypherGraph.nodeProperties). */
export class KbNode extends GraphNode {
  constructor(
    id: number,
    labels: string[],
    private readonly graph: KbCypherGraph,
  ) {
    super(id, labels);
  }
  protected override loadProperties(): Properties {
    return this.graph.nodeProperties(this.id);
  }
  /** What filters and projections read most, without the bag (its aliases list) until something else is read. */
  override property(key: string): Value | undefined {
    if (key === 'name' || key === 'id' || key === 'type' || key === 'claim_count') {
      return this.graph.nodeProperty(this.id, key);
    }
    return super.property(key);
  }
}

/** A relationship whose property bag is built when first read (KbCypherGraph.relProperties). */
export class KbRelationship extends GraphRelationship {
  constructor(
    id: number,
    type: string,
    start: GraphNode,
    end: GraphNode,
    private readonly graph: KbCypherGraph,
  ) {
    super(id, type, start, end);
  }
  protected override loadProperties(): Properties {
    return this.graph.relProperties(this.id);
  }
  /** The predicate's names and the confidence without the bag (its claim ids and content hash). */
  override property(key: string): Value | undefined {
    if (key === 'predicate' || key === 'predicate_class' || key === 'confidence' || key === 'source_count') {
      return this.graph.relProperty(this.id, key);
    }
    return super.property(key);
  }
}
