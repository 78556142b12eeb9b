// The residual effects of a design of 0/1 indicators whose QR meets an exact zero on the diagonal (a three-batch
// layout from a held-out seed, 630244443): the reflection's sign there is decided by rounding, so the basis of the
// residual space, which fry's robust variance reads (its largest squared effect), is R's only when the arithmetic is
// LINPACK dqrdc2's, as R's qr() does it. Expected values: R 4.2.2 with limma 3.54.1, `limma:::.lmEffects(y, design,
// contrast = 2)` on the design and rows below, printed with %.17g (the script is in this file's last comment).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowEffects } from '../src/enrichment/effects.js';

const batch = 'b2 b2 b2 b3 b1 b2 b1 b3 b1 b3 b3 b1 b1 b3 b3 b2 b1 b2'.split(' ');
const cases = '0 1 0 1 1 1 1 1 0 1 0 1 0 0 1 1 1 1'.split(' ').map(Number);

const R_EFFECTS = [
  [
    -0.91351359470196414, -0.66600962572633138, -0.43702810339182752, 0.94990124765559614, 1.4304611506242404,
    0.090426541174046693, -0.10291820688851111, -1.1734938955543617, -0.24365826906362786, 0.098475092758931015,
    0.81710366669121215, 1.0913907441579755, -0.44551592185796696, -0.66848284294274973, -0.90859985196457782,
  ],
  [
    0.5400884242473738, -1.7013624554514613, -0.613684862832651, -0.37839339873809014, 1.0536088141948703,
    0.37290737785441846, 1.2319451900279255, 0.46937130735415455, -0.58419442227734919, -1.1746728606601085,
    -0.31442882678846484, 0.50250600768862841, 1.0795808223267997, 1.2211645279803733, 2.0760105440090544,
  ],
];

test('residual effects of a design with a diagonal tie are R’s, element for element', () => {
  const n = 18;
  const p = 4;
  // model.matrix(~ condition + batch): intercept, case, b2, b3 (column-major)
  const x = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    x[i] = 1;
    x[n + i] = cases[i]!;
    x[2 * n + i] = batch[i] === 'b2' ? 1 : 0;
    x[3 * n + i] = batch[i] === 'b3' ? 1 : 0;
  }
  const data = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    data[i] = Math.sin(i + 1);
    data[n + i] = Math.cos((i + 1) * 0.7) + (i + 1) / 10;
  }
  const fx = rowEffects({ nrow: 2, ncol: n, data }, { n, p, x, columns: ['a', 'case', 'b2', 'b3'] }, 1);
  for (let g = 0; g < 2; g++) {
    const ours = Array.from(fx.effects!.subarray(g * n + p - 1, g * n + n));
    ours[0]! *= fx.sign[g]!;
    R_EFFECTS[g]!.forEach((want, j) => {
      assert.ok(Math.abs(ours[j]! - want) <= 1e-12, `row ${g + 1}, effect ${j + 1}: ${ours[j]} vs R ${want}`);
    });
  }
});

// batch <- c("b2","b2","b2","b3","b1","b2","b1","b3","b1","b3","b3","b1","b1","b3","b3","b2","b1","b2")
// condition <- c("control","case","control","case","case","case","case","case","control","case","control","case",
//   "control","control","case","case","case","case")
// design <- model.matrix(~ factor(condition, levels = c("control", "case")) + factor(batch),
//   data = data.frame(condition, batch))
// y <- rbind(sin(1:18), cos(1:18 * 0.7) + (1:18) / 10)
// E <- limma:::.lmEffects(y, design, contrast = 2); cat(sprintf("%.17g", E[1, ]), sep = ", ")
