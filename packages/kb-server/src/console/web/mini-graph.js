// @ts-check
// A small force-directed cytoscape graph for the topic and query views (the entity view draws its own): nodes
// carry their own colour, so each view decides what colour means (topic, entity type).

/**
 * Draws `{ nodes: [{ id, label, colour, title? }], edges: [{ id, source, target, label? }] }` into `container`;
 * returns the cytoscape instance, or null when cytoscape did not load.
 */
export function drawMiniGraph(container, { nodes, edges }, onTap) {
  // A global of the vendored script (index.html loads it before the page's modules); absent if it failed to load.
  const cytoscape = /** @type {any} */ (window).cytoscape;
  if (typeof cytoscape !== 'function') return null;
  const known = new Set(nodes.map((n) => n.id));
  const cy = cytoscape({
    container,
    elements: {
      // Start on a circle (in the given order, so a topic's members start together) for a deterministic layout.
      nodes: nodes.map((n, i) => ({
        data: { id: n.id, label: n.label, colour: n.colour, topic: n.topic ?? '' },
        position: {
          x: Math.cos((2 * Math.PI * i) / nodes.length) * 40 * Math.sqrt(nodes.length),
          y: Math.sin((2 * Math.PI * i) / nodes.length) * 40 * Math.sqrt(nodes.length),
        },
      })),
      edges: edges
        .filter((e) => known.has(e.source) && known.has(e.target))
        .map((e) => ({ data: { id: e.id, source: e.source, target: e.target, label: e.label ?? '' } })),
    },
    wheelSensitivity: 0.3,
    // A three-node path should not fill the card at giant size when the layout fits it.
    maxZoom: 1.5,
    style: [
      {
        selector: 'node',
        style: {
          'background-color': 'data(colour)',
          label: 'data(label)',
          width: 26,
          height: 26,
          'font-size': 11,
          color: '#1d2433',
          'text-valign': 'bottom',
          'text-margin-y': 4,
          'text-outline-color': '#fff',
          'text-outline-width': 2,
        },
      },
      {
        selector: 'edge',
        style: {
          width: 1.5,
          'line-color': '#98a2b3',
          'target-arrow-color': '#98a2b3',
          'target-arrow-shape': 'triangle',
          'curve-style': 'bezier',
          label: 'data(label)',
          'font-size': 9,
          color: '#344054',
          'text-rotation': 'autorotate',
          'text-margin-y': -7,
          'text-background-color': '#fff',
          'text-background-opacity': 1,
          'text-background-padding': 2,
        },
      },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#101828' } },
      { selector: '.dim', style: { opacity: 0.2 } },
    ],
    // Deterministic: cose started from a grid, not random positions.
    layout: { name: 'cose', animate: false, randomize: false, padding: 24, numIter: 1000, nodeRepulsion: () => 9000 },
  });
  if (onTap) cy.on('tap', 'node', (evt) => onTap(evt.target.id()));
  return cy;
}
