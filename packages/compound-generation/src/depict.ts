// RDKit SVG depictions, and a grid of them composed into one SVG (nested <svg> elements).
import { parseSmiles, type RDKit } from './rdkit.js';

export function depictSvg(rd: RDKit, smiles: string, width = 300, height = 240): string {
  const mol = parseSmiles(rd, smiles);
  if (!mol) return '';
  try {
    return mol.get_svg(width, height);
  } finally {
    mol.delete();
  }
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export interface GridCell {
  svg: string;
  legend?: string;
}

/** Composes depictions into a grid: each cell is the RDKit SVG, nested and positioned, with a legend line. */
export function svgGrid(cells: GridCell[], columns = 4, cellWidth = 300, cellHeight = 240): string {
  const legendHeight = 22;
  const rows = Math.ceil(cells.length / columns);
  const W = columns * cellWidth;
  const H = rows * (cellHeight + legendHeight);
  const parts = cells.map((c, i) => {
    const x = (i % columns) * cellWidth;
    const y = Math.floor(i / columns) * (cellHeight + legendHeight);
    const inner = c.svg.replace(/<\?xml[^>]*\?>\s*/, '').replace(/^<svg /, `<svg x="${x}" y="${y}" `);
    const legend = c.legend
      ? `<text x="${x + cellWidth / 2}" y="${y + cellHeight + 15}" font-family="sans-serif" font-size="12" text-anchor="middle">${escapeXml(c.legend)}</text>`
      : '';
    return inner + legend;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><rect width="100%" height="100%" fill="#ffffff"/>${parts.join('\n')}</svg>\n`;
}
