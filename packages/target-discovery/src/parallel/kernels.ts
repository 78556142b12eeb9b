// The per-gene kernels a worker thread can run, by name (pool.ts hands this module's URL to the workers). A kernel
// fills its results for the genes [start, end) into shared arrays in `args` and may return a small value per block.
import type { Kernel } from '@evident/worker-threads';
import { deseq2Kernels } from '../de/deseq2/kernels.js';
import { edgerKernels } from '../de/edger/kernels.js';

export const kernels: Record<string, Kernel> = { ...deseq2Kernels, ...edgerKernels };
