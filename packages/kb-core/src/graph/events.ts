// Events an apply queues for the write path to deliver once the write is committed (see write/write-path.ts).
export type PendingEvent =
  | { name: 'claim_ingested'; claim: number }
  | { name: 'claim_corroborated'; fact: number; count: number; claim: number }
  | { name: 'source_retracted'; source_id: string; reason: string; retracted: number[]; degraded: number[] }
  | { name: 'inquiry_matched'; inquiry_id: string; claim: number };
