// Types of provenance-link.js (the page's plain JavaScript module), for the tests that run it in Node.
export declare const LINK_FIELDS: string[];
export declare function sourceLinkOf(provenance: unknown): string | null;
export declare function sourceCell<N>(
  h: (tag: string, attrs?: Record<string, unknown>, ...children: N[]) => N,
  provenance: { source_id: string; source_type: string; [key: string]: unknown },
): N[];
