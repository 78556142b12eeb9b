// Each entity's facts side by side (compressed sparse rows), for graph walks. The entities' fact lists thread
// through the fact columns (facts.ts), so a walk jumps to a new place in four or five columns per fact: at a
// million claims, most of a depth-2 query was those cache misses. Here an entity's facts and the entity at
// their other end are read in a row. The rows cover the facts that existed when they were built; facts added
// since are on the lists' tails (a list grows at its end), which a walk follows from the last fact in the row
// (FactAdjacency.tail). GraphState rebuilds the rows when the facts added since are more than an eighth of
// those covered, so an ingest never pays for them and a walk follows few tail links.
// Deliberate likeness (graph-algorithms csr.ts csrFromEdges): the same counting sort into rows, here of fact ids in
// log order with no weights or checks, over the index's own columns (no edge-list copy).
export class FactAdjacency {
  /** Entity e's row is fact[start[e]..start[e + 1]), in list order; other[i] is the other end of fact[i]. */
  readonly start: Int32Array;
  readonly fact: Int32Array;
  readonly other: Int32Array;

  /** Rows over facts 0..facts-1 of entities 0..entities-1, from the fact columns (subject, object). */
  constructor(
    readonly facts: number,
    readonly entities: number,
    factS: Int32Array,
    factO: Int32Array,
  ) {
    const start = new Int32Array(entities + 1);
    for (let f = 0; f < facts; f++) {
      const s = factS[f]!;
      const o = factO[f]!;
      start[s + 1]!++;
      // A self-loop is on its entity's list once.
      if (o !== s) start[o + 1]!++;
    }
    for (let e = 0; e < entities; e++) start[e + 1]! += start[e]!;
    const fill = start.slice(0, entities);
    const fact = new Int32Array(start[entities]!);
    const other = new Int32Array(start[entities]!);
    // Facts in increasing order, which is each list's order (a fact joins its entities' lists when added).
    for (let f = 0; f < facts; f++) {
      const s = factS[f]!;
      const o = factO[f]!;
      let i = fill[s]!++;
      fact[i] = f;
      other[i] = o;
      if (o !== s) {
        i = fill[o]!++;
        fact[i] = f;
        other[i] = s;
      }
    }
    this.start = start;
    this.fact = fact;
    this.other = other;
  }

  /**
   * Where e's list goes on after its row: the fact after the row's last (-1 when none), or the list's first
   * fact when the row is empty or e is newer than the rows.
   */
  tail(e: number, firstFact: Int32Array, factS: Int32Array, nextS: Int32Array, nextO: Int32Array): number {
    if (e >= this.entities) return firstFact[e]!;
    const end = this.start[e + 1]!;
    if (end === this.start[e]) return firstFact[e]!;
    const f = this.fact[end - 1]!;
    return factS[f] === e ? nextS[f]! : nextO[f]!;
  }
}
