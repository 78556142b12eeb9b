// DESeq2's per-gene kernels by name, for the worker threads (../../parallel/kernels.ts).
import { geneWiseRange } from './gene-wise.js';
import { mapRange } from './map.js';
import { waldRange } from './wald.js';

export const deseq2Kernels = {
  'deseq2.geneWise': geneWiseRange,
  'deseq2.map': mapRange,
  'deseq2.wald': waldRange,
};
