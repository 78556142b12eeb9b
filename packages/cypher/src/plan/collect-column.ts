// collect(n.key) over a column (the columnar aggregations): each group's list in row order, nulls skipped, a row
// standing for m rows (an optional hop's multiplicity) adding its value m times, as row by row. The lists are built
// with the budget's ListBuilder (max_list_size, the memory cap) and held against the memory budget while they grow.
import { type Budget, Held, ListBuilder } from '../budget.js';
import type { Column } from '../columns.js';
import type { Value } from '../values.js';
import { reader } from './columnar.js';

export function collectColumn(
  c: Column,
  gid: Int32Array,
  groups: number,
  sel: ArrayLike<number>,
  budget: Budget,
  w?: Float64Array,
): (g: number) => Value {
  const read = reader(c);
  const lists: (ListBuilder | undefined)[] = new Array(groups);
  const held = new Held(budget, 'aggregation');
  try {
    for (let i = 0; i < gid.length; i++) {
      const v = read(sel[i]!);
      if (v === null) continue;
      const g = gid[i]!;
      let list = lists[g];
      if (!list) {
        list = new ListBuilder(budget, 'collect()');
        lists[g] = list;
      }
      const before = list.size;
      for (let m = w ? w[i]! : 1; m > 0; m--) list.push(v);
      held.add(list.size - before);
    }
  } finally {
    held.release();
  }
  const done: (Value[] | undefined)[] = new Array(groups);
  return (g) => (done[g] ??= lists[g]?.done() ?? []);
}
