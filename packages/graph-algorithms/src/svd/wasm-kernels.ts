// The SIMD kernels of column-kernels.wat, instantiated over a shared WebAssembly memory that holds the row team's
// buffers (row-team.ts). The module is compiled once per thread; each thread instantiates it over the same memory.
import { COLUMN_KERNELS_WASM } from './column-kernels-wasm.js';

/** Byte offsets into the memory; row ranges of even length (column-kernels.wat). */
export interface WasmColumnKernels {
  spmv(offsets: number, targets: number, weights: number, x: number, y: number, from: number, to: number): void;
  project(v: number, n: number, count: number, w: number, out: number, from: number, to: number): void;
  subtract(v: number, n: number, count: number, coef: number, w: number, from: number, to: number): void;
  combine(v: number, n: number, m: number, c: number, width: number, y: number, from: number, to: number): void;
}

/** The largest memory a 32-bit WebAssembly module addresses: 65,536 pages of 64 KiB. */
export const WASM_MAX_BYTES = 65536 * 65536;
const PAGE = 65536;

/** The parts of the WebAssembly JS API used here (@types/node 20 does not declare them). */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
}
interface WasmApi {
  Memory: new (limits: { initial: number; maximum: number; shared: true }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;

export function sharedKernelMemory(bytes: number): WasmMemory {
  const pages = Math.max(1, Math.ceil(bytes / PAGE));
  return new api.Memory({ initial: pages, maximum: pages, shared: true });
}

export function wasmColumnKernels(memory: WasmMemory): WasmColumnKernels {
  compiled ??= new api.Module(Buffer.from(COLUMN_KERNELS_WASM, 'base64'));
  return new api.Instance(compiled, { env: { memory } }).exports as WasmColumnKernels;
}
