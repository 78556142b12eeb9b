// Docking options: defaults, validation, and Vina's command line built from them.
import { type Box, checkBox, checkInt, checkNumber, DOCKING_LIMITS, type Problems } from '../limits.js';

export interface VinaSearchOptions {
  /** Vina's --seed: the same seed, inputs and version give the same poses. Default 1 (never Vina's random 0). */
  seed?: number;
  /** --exhaustiveness: independent Monte Carlo runs (cost is about proportional). Default 8. */
  exhaustiveness?: number;
  /** --num_modes: at most this many poses. Default 9. */
  numModes?: number;
  /** --energy_range: poses within this many kcal/mol of the best. Default 3. */
  energyRange?: number;
  /** --cpu: threads for one docking. Default 1: parallelism is across ligands (see DockingSession). */
  cpu?: number;
  /** Kill Vina after this long. Default 600 s. */
  timeoutMs?: number;
}

export const SEARCH_DEFAULTS = {
  seed: 1,
  exhaustiveness: 8,
  numModes: 9,
  energyRange: 3,
  cpu: 1,
  timeoutMs: 600_000,
} as const;

export type ResolvedSearch = Required<VinaSearchOptions>;

export function checkSearch(o: VinaSearchOptions, p: Problems, base = ''): void {
  const L = DOCKING_LIMITS;
  checkInt(o.seed, `${base}/seed`, 1, 2_147_483_647, p);
  checkInt(o.exhaustiveness, `${base}/exhaustiveness`, 1, L.exhaustivenessMax, p);
  checkInt(o.numModes, `${base}/numModes`, 1, L.numModesMax, p);
  checkNumber(o.energyRange, `${base}/energyRange`, 0, L.energyRangeMax, p);
  checkInt(o.cpu, `${base}/cpu`, 1, L.cpuMax, p);
  checkInt(o.timeoutMs, `${base}/timeoutMs`, 1, L.timeoutMsMax, p);
}

export function resolveSearch(...layers: VinaSearchOptions[]): ResolvedSearch {
  const out: Record<string, number> = { ...SEARCH_DEFAULTS };
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) if (k in SEARCH_DEFAULTS && v !== undefined) out[k] = v as number;
  }
  return out as ResolvedSearch;
}

export { checkBox, type Box };

/** The box as Vina's arguments (String(): the shortest text that reads back as the same double). */
export function boxArgs(box: Box): string[] {
  const [cx, cy, cz] = box.center;
  const [sx, sy, sz] = box.size;
  return [
    ['--center_x', cx],
    ['--center_y', cy],
    ['--center_z', cz],
    ['--size_x', sx],
    ['--size_y', sy],
    ['--size_z', sz],
  ].flatMap(([k, v]) => [String(k), String(v)]);
}

/** With `files.maps` (a `--write_maps` prefix) Vina loads the grid instead of the receptor; the maps carry the box. */
export function dockArgs(
  files: { receptor: string; ligand: string; out: string; maps?: string },
  box: Box,
  s: ResolvedSearch,
): string[] {
  return [
    ...(files.maps ? ['--maps', files.maps] : ['--receptor', files.receptor, ...boxArgs(box)]),
    '--ligand',
    files.ligand,
    '--seed',
    String(s.seed),
    '--exhaustiveness',
    String(s.exhaustiveness),
    '--num_modes',
    String(s.numModes),
    '--energy_range',
    String(s.energyRange),
    '--cpu',
    String(s.cpu),
    '--out',
    files.out,
    '--verbosity',
    '1',
  ];
}
