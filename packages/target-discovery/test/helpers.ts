import { readFileSync } from 'node:fs';
import { referencePath } from '@evident/testkit';

export function ref(file: string): string {
  return readFileSync(referencePath('target-discovery', file), 'utf8');
}

/** `xs[i]`, failing loudly when there is no such element (rather than letting NaN into a comparison). */
export function at<T>(xs: ArrayLike<T>, i: number): T {
  const v = xs[i];
  if (v === undefined) throw new Error(`no element ${i} (length ${xs.length})`);
  return v;
}

export type RefRow = Readonly<Record<string, number>>;

/** Reference CSV with an id column then numeric columns: id -> record. */
export function refTable(file: string): Map<string, RefRow> {
  const [headerLine = '', ...lines] = ref(file).trim().split('\n');
  const header = headerLine.split(',');
  const out = new Map<string, RefRow>();
  for (const l of lines) {
    const c = l.split(',');
    const rec: Record<string, number> = {};
    header.slice(1).forEach((h, k) => {
      rec[h] = Number(c[k + 1]);
    });
    out.set(at(c, 0), rec);
  }
  return out;
}

/** The reference value in column `name` for `id`; a missing id or column fails the test. */
export function refValue(table: ReadonlyMap<string, RefRow>, id: string, name: string): number {
  const v = table.get(id)?.[name];
  if (v === undefined) throw new Error(`reference has no ${name} for ${id}`);
  return v;
}

export interface Diff {
  maxAbs: number;
  maxRel: number;
}

export function compare(ours: number[], theirs: number[]): Diff {
  let maxAbs = 0;
  let maxRel = 0;
  ours.forEach((o, i) => {
    const t = at(theirs, i);
    const a = Math.abs(o - t);
    maxAbs = Math.max(maxAbs, a);
    maxRel = Math.max(maxRel, t === 0 ? a : a / Math.abs(t));
  });
  return { maxAbs, maxRel };
}
