// Types of timeline-chart.js (the page's plain JavaScript module), for the tests that run it in Node.
export interface TimelineEventLike {
  at: string;
  event: 'added' | 'retracted' | 'degraded';
  claim_id: string;
}
export declare function activeSeries(
  events: TimelineEventLike[],
): { t: number; active: number; event: string; claim_id: string }[];
export declare function timelineChart<N>(
  s: (tag: string, attrs?: Record<string, unknown>, ...children: N[]) => N,
  events: TimelineEventLike[],
  fmtDate: (iso: string) => string,
): N;
