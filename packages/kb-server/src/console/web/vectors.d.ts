// Types of vectors.js (the page's plain JavaScript module), for the tests that run it in Node.
export interface VectorsStatusLike {
  indexed: number;
  pending: number;
  progress: number;
  eta_ms: number | null;
  last_error: string | null;
}
export declare function duration(ms: number): string;
export declare function vectorsText(st: VectorsStatusLike | null): string;
