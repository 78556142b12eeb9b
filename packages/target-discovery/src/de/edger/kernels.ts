// edgeR's per-gene kernels by name, for the worker threads (../../parallel/kernels.ts).
import { glmFitRange } from './fit-all.js';
import { gridRange } from './profile-lik.js';

export const edgerKernels = {
  'edger.glmFit': glmFitRange,
  'edger.grid': gridRange,
};
