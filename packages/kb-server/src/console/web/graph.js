// @ts-check
// The entity view's relationship graph (Cytoscape, served from /vendor/cytoscape): the entity in the middle, what
// it relates to directly (solid edges, width = confidence) and what is reached through those (dashed).
import { colorOf, enc } from './dom.js';

/** @type {any} the graph on the page, or null (none drawn yet, or Cytoscape did not load) */
let graph = null;

/** The graph on the page, or null. */
export const currentGraph = () => graph;

// Cytoscape's styles for the entity graph.
const GRAPH_STYLE = [
  {
    selector: 'node',
    style: {
      /** @param {any} n */
      'background-color': (n) => colorOf(n.data('type')),
      label: 'data(label)',
      width: 'data(size)',
      height: 'data(size)',
      'font-size': 12,
      color: '#1d2433',
      'text-valign': 'bottom',
      'text-margin-y': 4,
      'text-outline-color': '#fff',
      'text-outline-width': 2,
    },
  },
  {
    selector: 'node[focal = 1]',
    style: { 'border-width': 4, 'border-color': '#101828', 'font-weight': 'bold', 'font-size': 13 },
  },
  {
    selector: 'edge',
    style: {
      width: 'data(width)',
      'line-color': '#c3cad6',
      'target-arrow-color': '#c3cad6',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      'line-style': 'dashed',
    },
  },
  {
    selector: 'edge[direct = 1]',
    style: {
      'line-style': 'solid',
      'line-color': '#98a2b3',
      'target-arrow-color': '#98a2b3',
      label: 'data(label)',
      'font-size': 10,
      color: '#344054',
      'text-rotation': 'autorotate',
      'text-margin-y': -8,
      'text-background-color': '#fff',
      'text-background-opacity': 1,
      'text-background-padding': 2,
    },
  },
  { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#8fb0ff' } },
];

/**
 * Nodes on rings by distance (a deterministic start for the force layout) and edges: the direct relationships, then
 * a dashed edge to each entity further away from the one it is reached through.
 * @param {any} entity
 * @param {any} frame the entity's context (GET /entities/{id}/context)
 */
function elementsOf(entity, frame) {
  /** @type {{ data: { id: string, label: string, type: string, focal?: number, size: number }, position: { x: number, y: number } }[]} */
  const nodes = [
    { data: { id: entity.id, label: entity.name, type: entity.type, focal: 1, size: 46 }, position: { x: 0, y: 0 } },
  ];
  // Initial positions on rings by distance (deterministic start for the force layout).
  frame.entities.forEach((e, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, frame.entities.length) + e.distance;
    nodes.push({
      data: {
        id: e.id,
        label: e.name,
        type: e.type,
        size: Math.max(20, 34 - e.distance * 5 + Math.min(10, Math.log2(1 + e.claim_count) * 2)),
      },
      position: { x: Math.cos(angle) * 120 * e.distance, y: Math.sin(angle) * 120 * e.distance },
    });
  });
  const known = new Set(nodes.map((n) => n.data.id));
  const edges = [];
  for (const r of frame.direct_relationships) {
    if (!known.has(r.target.id)) continue;
    const [src, dst] = r.direction === 'outgoing' ? [entity.id, r.target.id] : [r.target.id, entity.id];
    edges.push({
      data: {
        id: `${r.content_id}`,
        source: src,
        target: dst,
        label: r.predicate,
        width: 1 + 5 * r.confidence,
        direct: 1,
      },
    });
  }
  for (const e of frame.entities)
    if (e.distance > 1 && known.has(e.via))
      edges.push({ data: { id: `via:${e.via}->${e.id}`, source: e.via, target: e.id, label: '', width: 1 } });
  return { nodes, edges };
}

/**
 * Draws `entity`'s graph into #graph, replacing the one drawn before; clicking a node opens it.
 * @param {any} entity
 * @param {any} frame the entity's context (GET /entities/{id}/context)
 */
export function drawGraph(entity, frame) {
  if (graph) {
    graph.destroy();
    graph = null;
  }
  // A global of the vendored script (index.html loads it before this module); absent if it failed to load.
  const cytoscape = /** @type {any} */ (window).cytoscape;
  if (typeof cytoscape !== 'function') return;
  graph = cytoscape({
    container: document.getElementById('graph'),
    elements: elementsOf(entity, frame),
    wheelSensitivity: 0.3,
    style: GRAPH_STYLE,
    // Force-directed, seeded with the focal entity in the middle; fits the container.
    layout: {
      name: 'cose',
      animate: false,
      randomize: false,
      idealEdgeLength: () => 80,
      nodeRepulsion: () => 12000,
      edgeElasticity: () => 80,
      gravity: 0.6,
      padding: 30,
      numIter: 1500,
    },
  });
  graph.on('tap', 'node', (/** @type {any} */ evt) => {
    if (evt.target.id() !== entity.id) location.hash = `#/entity/${enc(evt.target.id())}`;
  });
  /** @type {any} */ (window).kbGraph = graph;
}
