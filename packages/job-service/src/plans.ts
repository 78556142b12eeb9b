// Plans: requests per minute and concurrent jobs (jobs of the key still `processing`).
export type PlanName = 'student' | 'researcher' | 'enterprise';
export const PLAN_NAMES: readonly PlanName[] = ['student', 'researcher', 'enterprise'];

export interface PlanLimits {
  rpm: number;
  concurrency: number;
}

export const PLANS: Record<Exclude<PlanName, 'enterprise'>, PlanLimits> = {
  student: { rpm: 60, concurrency: 2 },
  researcher: { rpm: 300, concurrency: 10 },
};

/** Limits of a key: the plan's, or for enterprise the ones stored on the key. */
export function limitsOf(key: { plan: PlanName; rpm: number | null; concurrency: number | null }): PlanLimits {
  if (key.plan === 'enterprise') {
    if (key.rpm == null || key.concurrency == null) throw new Error(`enterprise key without limits`);
    return { rpm: key.rpm, concurrency: key.concurrency };
  }
  return PLANS[key.plan];
}
