// Small facts about atoms that several folders use.

/** Hydrogen and deuterium are left out of boxes, contacts and heavy-atom counts. */
export const isHeavy = (element: string) => element !== 'H' && element !== 'D';

export function centroid(atoms: readonly { x: number; y: number; z: number }[]): [number, number, number] {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const a of atoms) {
    x += a.x;
    y += a.y;
    z += a.z;
  }
  const n = atoms.length || 1;
  return [x / n, y / n, z / n];
}
