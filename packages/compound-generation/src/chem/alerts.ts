// Structural alerts: PAINS (Baell and Holloway 2010; 480 SMARTS, data/pains.json) and the 116 unwanted-group
// SMARTS of QED (Bickerton et al. 2012, after Brenk et al. 2008), and this project's stability alerts
// (data/stability-alerts.txt). Reported by name; a hard filter by default.
import { readDataJson, readDataText } from '../data.js';
import { hasSubstructMatch, type Mol, type RDKit } from '../rdkit.js';
import { qedParams } from './qed.js';

interface PainsData {
  alerts: Array<{ name: string; smarts: string }>;
}

let pains: PainsData['alerts'] | undefined;
export function painsAlerts(): PainsData['alerts'] {
  pains ??= readDataJson<PainsData>('pains.json').alerts;
  return pains;
}

/** Names of the PAINS alerts a molecule matches, e.g. "pains:ene_rhod_A(235)". */
export function painsHits(rd: RDKit, mol: Mol, molFp?: Uint32Array): string[] {
  const hits: string[] = [];
  for (const a of painsAlerts()) if (hasSubstructMatch(rd, mol, a.smarts, molFp)) hits.push(`pains:${a.name}`);
  return hits;
}

/** Names for QED's unwanted-group alerts, by index ("unwanted:<SMARTS>"). */
export function unwantedAlertNames(indices: number[]): string[] {
  const smarts = qedParams().structural_alert_smarts;
  return indices.map((i) => `unwanted:${smarts[i]}`);
}

let stability: Array<{ name: string; smarts: string }> | undefined;
export function stabilityAlerts(): Array<{ name: string; smarts: string }> {
  stability ??= readDataText('stability-alerts.txt')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const sp = l.indexOf(' ');
      return { name: l.slice(0, sp), smarts: l.slice(sp + 1).trim() };
    });
  return stability;
}

/** Names of the stability alerts a molecule matches, e.g. "stability:enol". */
export function stabilityHits(rd: RDKit, mol: Mol, molFp?: Uint32Array): string[] {
  const hits: string[] = [];
  for (const a of stabilityAlerts()) if (hasSubstructMatch(rd, mol, a.smarts, molFp)) hits.push(`stability:${a.name}`);
  return hits;
}
