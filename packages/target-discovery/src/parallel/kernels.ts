// The per-gene kernels a worker thread can run, by name. A kernel fills its results for the genes
// [start, end) into shared arrays in `args` and may return a small value per block (gathered by the pool).
import { deseq2Kernels } from '../de/deseq2/kernels.js';
import { edgerKernels } from '../de/edger/kernels.js';

export type Kernel = (args: never, start: number, end: number) => unknown;

export const kernels: Record<string, Kernel> = { ...deseq2Kernels, ...edgerKernels };
