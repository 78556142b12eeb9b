// Every scoring component a profile may name. REINVENT 4 looks a name up lower-cased, without '_' and '-'
// (reinvent/scoring/config.py), so `QED`, `qed` and `Qed` are one component; so are they here.
import { EXTERNAL_PROCESS } from './external-process.js';
import { ISOMER } from './isomer.js';
import { PHYSCHEM_COMPONENTS } from './physchem.js';
import { TANIMOTO_SIMILARITY } from './similarity.js';
import { CUSTOM_ALERTS, GROUP_COUNT, MATCHING_SUBSTRUCTURE } from './substructure.js';
import type { ComponentDef } from './types.js';
import { VINA_DOCKING } from './docking.js';
import { lookupKey } from '../transforms.js';

export const COMPONENTS: readonly ComponentDef[] = [
  ...PHYSCHEM_COMPONENTS,
  TANIMOTO_SIMILARITY,
  GROUP_COUNT,
  MATCHING_SUBSTRUCTURE,
  CUSTOM_ALERTS,
  EXTERNAL_PROCESS,
  ISOMER,
  VINA_DOCKING,
];

const BY_KEY = new Map<string, ComponentDef>();
for (const c of COMPONENTS) for (const n of [c.name, ...(c.aliases ?? [])]) BY_KEY.set(lookupKey(n), c);

export function findComponent(name: string): ComponentDef | undefined {
  return BY_KEY.get(lookupKey(name));
}

/** Component names as a profile writes them, REINVENT 4's first. */
export const COMPONENT_NAMES: readonly string[] = [
  ...COMPONENTS.filter((c) => c.reinvent).map((c) => c.name),
  ...COMPONENTS.filter((c) => !c.reinvent).map((c) => c.name),
];
