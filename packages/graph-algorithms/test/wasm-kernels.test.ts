// The SIMD kernels' committed bytes (src/svd/column-kernels-wasm.ts) are what src/svd/column-kernels.wat assembles
// to, so the .wat that is read and reviewed is the code that runs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
// @ts-expect-error: a plain .mjs script without type declarations
import { assembleColumnKernels } from '../scripts/build-wasm.mjs';

it('column-kernels-wasm.ts is column-kernels.wat assembled (node scripts/build-wasm.mjs rebuilds it)', async () => {
  const committed = readFileSync(new URL('../src/svd/column-kernels-wasm.ts', import.meta.url), 'utf8');
  assert.equal(committed, await assembleColumnKernels());
});
