import { readFileSync } from 'node:fs';
import { referencePath } from '@evident/testkit';

export function ref(file: string): string {
  return readFileSync(referencePath('target-discovery', file), 'utf8');
}

/** Reference CSV with an id column then numeric columns: id -> record. */
export function refTable(file: string): Map<string, Record<string, number>> {
  const lines = ref(file).trim().split('\n');
  const header = lines[0].split(',');
  const out = new Map<string, Record<string, number>>();
  for (const l of lines.slice(1)) {
    const c = l.split(',');
    const rec: Record<string, number> = {};
    header.slice(1).forEach((h, k) => (rec[h] = Number(c[k + 1])));
    out.set(c[0], rec);
  }
  return out;
}

export interface Diff {
  maxAbs: number;
  maxRel: number;
}

export function compare(ours: number[], theirs: number[]): Diff {
  let maxAbs = 0;
  let maxRel = 0;
  for (let i = 0; i < ours.length; i++) {
    const a = Math.abs(ours[i] - theirs[i]);
    maxAbs = Math.max(maxAbs, a);
    maxRel = Math.max(maxRel, theirs[i] === 0 ? a : a / Math.abs(theirs[i]));
  }
  return { maxAbs, maxRel };
}
