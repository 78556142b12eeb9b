// A docking session as the generator's docking port (compound generation's DockingPort, matched by shape so this
// package does not depend on the engine): one SMILES in, the best pose's affinity, its SDF and the residues it
// touches out. `contacts` comes from whoever holds the protein structure (@evident/protein-structure).
import { poseAtoms, type PoseAtom } from '../pose/pdbqt.js';
import { poseToSdf } from '../pose/sdf.js';
import type { DockingSession } from './session.js';

export interface SmilesPose {
  /**
   * Vina affinity of the best pose, kcal/mol, with the best pose's own internal energy as the unbound reference
   * (DockResult.affinity_corrected: what `vina --score_only` gives the pose).
   */
  score: number;
  /** The best pose as SDF (Open Babel, from Vina's PDBQT). */
  pose_sdf: string;
  contacts: string[];
}

export interface SmilesDockingPort {
  /** Docks a SMILES; `exhaustiveness` overrides the session's for this call. */
  dock(smiles: string, signal?: AbortSignal, exhaustiveness?: number): Promise<SmilesPose>;
}

export function smilesDockingPort(
  session: DockingSession,
  contacts: (atoms: PoseAtom[]) => string[],
): SmilesDockingPort {
  return {
    async dock(smiles, signal, exhaustiveness) {
      const r = await session.dockSmiles(smiles, {
        ...(signal ? { signal } : {}),
        ...(exhaustiveness === undefined ? {} : { exhaustiveness }),
      });
      const best = r.docking.poses[0]!;
      return {
        score: r.docking.affinity_corrected,
        pose_sdf: await poseToSdf(best.pdbqt, { tools: session.tools, ...(signal ? { signal } : {}) }),
        contacts: contacts(poseAtoms(best.pdbqt)),
      };
    },
  };
}
