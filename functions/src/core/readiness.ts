/** One readiness probe: resolves when its part can serve runs, rejects (or times out) when not. */
export type ReadinessCheck = () => Promise<void>;

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Record<string, 'ok' | 'failing'>;
}

/** A probe that hangs is as bad as one that fails; load balancers poll often. */
const CHECK_TIMEOUT_MS = 2000;

export async function checkReadiness(checks: Record<string, ReadinessCheck>): Promise<Readiness> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([check(), timeout]);
        return [name, 'ok'] as const;
      } catch {
        return [name, 'failing'] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: results.every(([, r]) => r === 'ok'), checks: Object.fromEntries(results) };
}
