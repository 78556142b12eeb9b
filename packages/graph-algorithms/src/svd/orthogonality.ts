// A running estimate of how far the Lanczos basis is from orthonormal, E ≈ VᵀV − I over the locked columns and
// the basis, which decides when one Gram–Schmidt pass is enough. Estimating the loss instead of measuring it is
// Simon's (1984) idea for partial re-orthogonalisation; here every step re-orthogonalises fully and the estimate
// only decides whether a second pass is needed. After a pass w' = w − V·c with c = Vᵀw as computed, the
// components left along the basis are Vᵀw' = c − VᵀV·c = −E·c, plus rounding: the pass maps the basis's
// non-orthogonality into the new vector exactly, and that costs O(count²) per step against the pass's
// O(count·n). Rounding is modelled as ε·‖w‖ per component with a fixed pseudo-random sign (Simon's model uses
// random signs of that size): the estimate and the true components go through the same linear map, so they stay
// of the same order. Why it is needed: one pass is enough for a single vector, but what it leaves grows by
// ‖c‖/‖w'‖ from one vector to the next, and a fixed threshold on that ratio does not bound the product. On a
// graph of 11 small components (134 nodes, 64 values) the components left went from 1e-16 to 1e-11 over 90
// steps at ratios of 0.5-0.8, then to 1 (two equal basis vectors) once Ritz values converged, and the projected
// matrix, which assumes an orthonormal basis, gave values up to 10⁵ where the largest was 8.

/** Unit roundoff of binary64. */
const EPS = 2 ** -52;

export class OrthogonalityModel {
  /** cap × cap, symmetric, zero diagonal: E[i·cap + l] ≈ v_iᵀv_l for i ≠ l. */
  private readonly e: Float64Array;
  /** Scratch for a restart's combination (cap × cap). */
  private readonly scratch: Float64Array;

  constructor(readonly cap: number) {
    this.e = new Float64Array(cap * cap);
    this.scratch = new Float64Array(cap * cap);
  }

  /** Forgets every column from `from` on (a new run over the same locked columns). */
  clearFrom(from: number): void {
    const { cap, e } = this;
    for (let i = 0; i < cap; i++) {
      if (i >= from) e.fill(0, i * cap, i * cap + cap);
      else e.fill(0, i * cap + from, i * cap + cap);
    }
  }

  /** Sets E among the first `count` columns from a measured Gram matrix G (count × count): E = G − I. */
  setMeasured(g: Float64Array, count: number): void {
    const { cap, e } = this;
    for (let i = 0; i < count; i++) for (let l = 0; l < count; l++) e[i * cap + l] = i === l ? 0 : g[i * count + l]!;
  }

  /**
   * The components, relative to ‖w'‖ = `after`, that a pass subtracting V·c (c over columns 0..count−1) from a
   * vector of norm `before` leaves along those columns, into `out`; returns the largest in magnitude.
   */
  leftAfterPass(
    c: Float64Array,
    count: number,
    before: number,
    after: number,
    salt: number,
    out: Float64Array,
  ): number {
    if (!(after > 0)) return Number.POSITIVE_INFINITY;
    const { cap, e } = this;
    let worst = 0;
    for (let l = 0; l < count; l++) {
      let s = 0;
      const o = l * cap;
      for (let i = 0; i < count; i++) s += e[o + i]! * c[i]!;
      const x = (-s + sign(l, salt) * EPS * before) / after;
      out[l] = x;
      if (Math.abs(x) > worst) worst = Math.abs(x);
    }
    return worst;
  }

  /** Column `col` enters the basis with the estimated components `row` (over columns 0..col−1). */
  setColumn(col: number, row: Float64Array): void {
    const { cap, e } = this;
    for (let l = 0; l < col; l++) {
      e[col * cap + l] = row[l]!;
      e[l * cap + col] = row[l]!;
    }
    e[col * cap + col] = 0;
  }

  /** Column `col` enters orthogonal to working precision (two passes, or a column that is zero). */
  setClean(col: number, size: number): void {
    const { cap, e } = this;
    for (let l = 0; l < col; l++) {
      const x = sign(l, col) * EPS * size;
      e[col * cap + l] = x;
      e[l * cap + col] = x;
    }
    e[col * cap + col] = 0;
  }

  /**
   * A thick restart: the basis columns base..base+m−1 become Y = V·S (S: m × width, row-major) in columns
   * base..base+width−1, and column base+width is the residual direction whose components along the old columns
   * (0..base+m−1) are `last`. E over Y is SᵀE S, plus the combination's rounding.
   */
  restart(base: number, m: number, s: Float64Array, width: number, last: Float64Array): void {
    const { cap, e, scratch } = this;
    // scratch[l·cap + c] = Σ_r E[l, base + r]·s[r, c] for every old column l (locked and basis).
    const count = base + m;
    for (let l = 0; l < count; l++) {
      for (let c = 0; c < width; c++) {
        let sum = 0;
        for (let r = 0; r < m; r++) sum += e[l * cap + base + r]! * s[r * width + c]!;
        scratch[l * cap + c] = sum;
      }
    }
    const lastY = new Float64Array(width);
    for (let c = 0; c < width; c++) {
      let sum = 0;
      for (let r = 0; r < m; r++) sum += last[base + r]! * s[r * width + c]!;
      lastY[c] = sum;
    }
    this.clearFrom(base);
    for (let c = 0; c < width; c++) {
      // Locked columns against Y_c.
      for (let l = 0; l < base; l++) {
        e[l * cap + base + c] = scratch[l * cap + c]!;
        e[(base + c) * cap + l] = scratch[l * cap + c]!;
      }
      // Y_d against Y_c: Σ_r s[r, d]·scratch[base + r, c].
      for (let d = 0; d < c; d++) {
        let sum = 0;
        for (let r = 0; r < m; r++) sum += s[r * width + d]! * scratch[(base + r) * cap + c]!;
        const x = sum + sign(d, c + cap) * EPS * Math.sqrt(m);
        e[(base + d) * cap + base + c] = x;
        e[(base + c) * cap + base + d] = x;
      }
    }
    const col = base + width;
    for (let l = 0; l < base; l++) {
      e[col * cap + l] = last[l]!;
      e[l * cap + col] = last[l]!;
    }
    for (let c = 0; c < width; c++) {
      e[col * cap + base + c] = lastY[c]!;
      e[(base + c) * cap + col] = lastY[c]!;
    }
  }

  /** The largest estimated |v_iᵀv_l| among the first `count` columns. */
  worst(count: number): number {
    const { cap, e } = this;
    let w = 0;
    for (let i = 0; i < count; i++) for (let l = 0; l < i; l++) w = Math.max(w, Math.abs(e[i * cap + l]!));
    return w;
  }
}

/** A fixed pseudo-random ±1 for the rounding term of component l (a hash, so that results stay seed-determined). */
function sign(l: number, salt: number): number {
  let z = Math.imul(l + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 15), 0xc2b2ae35);
  return (z ^ (z >>> 13)) & 1 ? 1 : -1;
}
