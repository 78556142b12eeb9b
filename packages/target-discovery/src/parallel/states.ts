// A pool worker's state in the pool's shared state array: booting, ready for jobs, or failed to start.
export const BOOTING = 0;
export const READY = 1;
export const FAILED = 2;
