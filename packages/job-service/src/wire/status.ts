// The job status document (GET /v1/jobs/{id}, list items, callbacks).
import { estimateFields, withWait } from '../estimate.js';
import type { QueuePlace } from '../queue/wait.js';
import type { JobRecord } from '../store/types.js';

export interface StatusDocument {
  job_id: string;
  kind: string;
  status: JobRecord['status'];
  created_at: string;
  started_at?: string;
  completed_at?: string;
  results_url?: string;
  /** Only when asked for (`?results_link=true`), for a completed job. */
  results_link?: { url: string; expires_at: string };
  progress?: { stage: string; percent: number };
  error?: { code: string; message: string };
  estimated_time: string;
  estimated_seconds: [number, number];
  queue_position?: number;
  attempts: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `baseUrl` is the public origin (e.g. http://127.0.0.1:8000); '' gives relative URLs. `place`: where a queued
 * job stands (its estimate then includes the wait for a worker).
 */
export function statusDocument(job: JobRecord, baseUrl: string, place?: QueuePlace): StatusDocument {
  const estimate = estimateFields(withWait([job.estimate_low, job.estimate_high], place?.wait ?? [0, 0]));
  const doc: StatusDocument = {
    job_id: job.id,
    kind: job.kind,
    status: job.status,
    created_at: iso(job.created_at),
    estimated_time: estimate.estimated_time,
    estimated_seconds: estimate.estimated_seconds,
    attempts: job.attempts,
  };
  if (place?.position !== undefined) doc.queue_position = place.position;
  if (job.started_at != null) doc.started_at = iso(job.started_at);
  if (job.completed_at != null) doc.completed_at = iso(job.completed_at);
  if (job.status === 'completed') doc.results_url = `${baseUrl}/v1/results/${job.id}`;
  if (job.status === 'processing') {
    doc.progress = {
      stage: job.phase === 'queued' ? (job.progress_stage ?? 'queued') : (job.progress_stage ?? 'starting'),
      percent: Math.round((job.progress_percent ?? 0) * 10) / 10,
    };
  }
  if (job.status === 'failed')
    doc.error = { code: job.error_code ?? 'job_failed', message: job.error_message ?? 'the job failed' };
  return doc;
}
