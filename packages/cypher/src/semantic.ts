// Compile-time checks: what openCypher rejects before touching the graph.
import type { Query } from './ast.js';

export function check(_q: Query): void {}
