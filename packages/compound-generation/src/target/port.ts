// What the generator needs from a docking engine, as a port: the engine stays pure (no subprocess, no files);
// the service (packages/job-service) or a benchmark plugs in AutoDock Vina through @evident/docking.

/** One stereoisomer docked into the target's pocket. */
export interface DockedPose {
  /** Vina affinity of the best pose, kcal/mol (more negative binds better). */
  score: number;
  /** The best pose as SDF (V2000), coordinates in the receptor's frame. */
  pose_sdf: string;
  /** Residues within 4 Å of the pose's heavy atoms, UniProt numbering where the structure maps it. */
  contacts: string[];
}

export interface DockingPort {
  /**
   * Docks one molecule given as isomeric SMILES (every stereocentre specified) into the prepared pocket, at the
   * given search exhaustiveness (the port's own default when absent).
   */
  dock(smiles: string, signal?: AbortSignal, exhaustiveness?: number): Promise<DockedPose>;
  /** What the results report about the docking engine and its settings. */
  describe(): DockingDescription;
}

export interface DockingDescription {
  engine: string;
  version: string;
  exhaustiveness: number;
  seed: number;
  /** How receptor and ligands were prepared (tools and pH). */
  preparation: string;
}

/** The target as the service resolved it: what the results document reports. */
export interface TargetSummary {
  uniprot: string;
  /** Where the structure came from: the request's file, a PDB entry or an AlphaFold DB model. */
  structure: { id: string; source: 'request' | 'pdb' | 'alphafold'; format: 'pdb' | 'mmcif'; chain: string } | null;
  /** The named residues as found in the structure (author and UniProt numbering). */
  residues: Array<{ label: string; author_number: number; uniprot_number: number | null; name: string }>;
  pocket: { center: [number, number, number]; size: [number, number, number]; source: string } | null;
  /** The receptor's residues in and around the pocket box (PDB text), so a viewer can show poses in place. */
  pocket_pdb: string;
  /** What a user should know about how the target was read (numbering, chain choice, fallbacks). */
  warnings: string[];
}
