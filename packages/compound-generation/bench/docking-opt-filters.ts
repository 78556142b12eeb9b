// The hard filters of bench/docking-opt.ts: the property windows a chemist would put on a docking campaign
// (Lipinski's and Veber's, a charge cap), applied before scoring so that a refused molecule costs no docking call.
import { analyseSmiles, type loadRDKit } from '@evident/compound-generation';

export const FILTERS = {
  mw: [250, 500],
  logp: [0, 5],
  hbd_max: 5,
  hba_max: 10,
  rotatable_bonds_max: 10,
  tpsa_max: 140,
  abs_formal_charge_max: 1,
};

/** optimize()'s `filter`: whether a canonical SMILES passes every window (false when RDKit cannot read it). */
export function admitsFor(rd: Awaited<ReturnType<typeof loadRDKit>>): (smiles: string) => boolean {
  const f = FILTERS;
  return (smiles) => {
    try {
      const p = analyseSmiles(rd, smiles).properties;
      return (
        p.mw >= f.mw[0]! &&
        p.mw <= f.mw[1]! &&
        p.logp >= f.logp[0]! &&
        p.logp <= f.logp[1]! &&
        p.hbd <= f.hbd_max &&
        p.hba <= f.hba_max &&
        p.rotatable_bonds <= f.rotatable_bonds_max &&
        p.tpsa <= f.tpsa_max &&
        Math.abs(p.formal_charge) <= f.abs_formal_charge_max
      );
    } catch {
      return false;
    }
  };
}
