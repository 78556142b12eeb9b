import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContactIndex, contactResidues, findHetGroup, type Structure } from '@evident/protein-structure';
import { fixture, thrown } from './fixtures.js';

/** Every residue with a heavy atom within `cutoff` of a heavy atom of `atoms`, by comparing all pairs. */
function bruteForce(s: Structure, atoms: { x: number; y: number; z: number; element: string }[], cutoff: number) {
  const out: number[] = [];
  for (const r of s.chains[0]!.residues) {
    const near = r.atoms.some(
      (a) =>
        a.element !== 'H' &&
        atoms.some((b) => b.element !== 'H' && Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) <= cutoff),
    );
    if (near) out.push(r.author_number);
  }
  return out;
}

describe('contactResidues', () => {
  const s = fixture('2src.pdb');
  const anp = findHetGroup(s, 'ANP').atoms;

  it('includes the hinge, the gatekeeper and the catalytic lysine around ANP, in UniProt numbering', () => {
    const labels = contactResidues(s, 'A', anp);
    // Closest heavy-atom distances to ANP from the file (awk over all pairs): THR 338 OG1–N6 3.53 Å,
    // GLU 339 O–N6 3.06, TYR 340 CD1–C2 3.49, MET 341 N–N1 2.86 (the hinge hydrogen bond), LYS 295 NZ–O2A 2.96.
    // UniProt = author + 2 (DBREF).
    for (const label of ['K297', 'T340', 'E341', 'Y342', 'M343']) assert.ok(labels.includes(label), label);
    const numbers = labels.map((l) => Number(l.slice(1)));
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
    );
  });

  it('finds the same residues as comparing every pair, at several cutoffs', () => {
    for (const cutoff of [3, 4, 6]) {
      const index = new ContactIndex(s, 'A', { cutoff });
      assert.deepEqual(
        index.contacts(anp).map((c) => c.author_number),
        bruteForce(s, anp, cutoff),
        `cutoff ${cutoff}`,
      );
    }
    // A pose moved 7.3 Å off the crystal one touches other residues; still the same as all pairs.
    const moved = anp.map((a) => ({ ...a, x: a.x + 7.3, z: a.z - 2.1 }));
    assert.deepEqual(
      new ContactIndex(s, 'A').contacts(moved).map((c) => c.author_number),
      bruteForce(s, moved, 4),
    );
  });

  it('reports the closest distance and ignores hydrogens of the pose', () => {
    const met = new ContactIndex(s, 'A').contacts(anp).find((c) => c.author_number === 341)!;
    assert.ok(Math.abs(met.distance - 2.86) < 0.01);
    const hydrogen = { x: anp[0]!.x, y: anp[0]!.y, z: anp[0]!.z, element: 'H' };
    assert.deepEqual(contactResidues(s, 'A', [hydrogen]), []);
  });

  it('rejects a bad cutoff and non-finite coordinates', () => {
    assert.equal(thrown(() => contactResidues(s, 'A', anp, { cutoff: 0 })).problems[0]!.path, '/cutoff');
    const e = thrown(() => contactResidues(s, 'A', [{ x: 0, y: Number.NaN, z: 0, element: 'C' }]));
    assert.equal(e.problems[0]!.path, '/atoms/0');
  });
});
