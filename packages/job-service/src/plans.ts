// Plans: requests per minute, concurrent jobs (jobs of the key still `processing`) and the largest oracle budget
// a compound-design job may ask for (issue 38: PMO's 10,000 calls fit the smallest plan).
export type PlanName = 'student' | 'researcher' | 'enterprise';
export const PLAN_NAMES: readonly PlanName[] = ['student', 'researcher', 'enterprise'];

export interface PlanLimits {
  rpm: number;
  concurrency: number;
  /** Largest `budget.max_oracle_calls` of a POST /v1/compounds/generate with `scoring`. */
  max_oracle_calls: number;
}

export const PLANS: Record<Exclude<PlanName, 'enterprise'>, PlanLimits> = {
  student: { rpm: 60, concurrency: 2, max_oracle_calls: 10_000 },
  researcher: { rpm: 300, concurrency: 10, max_oracle_calls: 100_000 },
};

/** Enterprise keys: the engine's own ceiling (a call log of this many rows is kept in memory and stored). */
export const ENTERPRISE_MAX_ORACLE_CALLS = 1_000_000;

/** Limits of a key: the plan's, or for enterprise the ones stored on the key. */
export function limitsOf(key: { plan: PlanName; rpm: number | null; concurrency: number | null }): PlanLimits {
  if (key.plan === 'enterprise') {
    if (key.rpm == null || key.concurrency == null) throw new Error(`enterprise key without limits`);
    return { rpm: key.rpm, concurrency: key.concurrency, max_oracle_calls: ENTERPRISE_MAX_ORACLE_CALLS };
  }
  return PLANS[key.plan];
}
