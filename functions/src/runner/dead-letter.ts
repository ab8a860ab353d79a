import { z } from 'zod/mini';
import type { CoreDeps } from '../core/deps';
import { stopTurnOnAgent } from '../core/executions';
import type { EndRunDeps } from './end-run';
import { endRun } from './end-run';

export type DeadLetterDeps = EndRunDeps & Pick<CoreDeps, 'fleet' | 'agentClient'>;

/**
 * What Lambda puts on the runner's on-failure destination once an async invoke has failed every
 * attempt (or aged out): the request it could not run and why.
 */
const FailedInvoke = z.object({
  requestContext: z.object({
    condition: z.string(),
    approximateInvokeCount: z.optional(z.number()),
  }),
  requestPayload: z.object({ tenant: z.string(), execution_id: z.string() }),
  responsePayload: z.optional(z.unknown()),
});

/**
 * Ends the run of a failed runner invoke as `failed` (`lost`, with Lambda's reason), frees its
 * lease and stops the agent's turn if one is still going (a runner that timed out leaves its CLI
 * running), so it never waits for the sweeper and no two CLIs write one session. A run that
 * reached a terminal state anyway is left alone. Returns whether it ended one; a body that is not
 * a failed invoke is logged and dropped.
 */
export async function endDeadLetteredRun(deps: DeadLetterDeps, body: string): Promise<boolean> {
  let parsed: z.infer<typeof FailedInvoke>;
  try {
    parsed = FailedInvoke.parse(JSON.parse(body));
  } catch {
    deps.logger.error('dead letter: not a failed runner invoke', { body: body.slice(0, 200) });
    return false;
  }
  const { tenant, execution_id } = parsed.requestPayload;
  const e = await deps.stores.executions.getExecution(tenant, execution_id);
  if (!e) return false;
  const attempts = parsed.requestContext.approximateInvokeCount ?? 1;
  const ended = await endRun(
    deps,
    e,
    'lost',
    `The runner could not run this execution (${parsed.requestContext.condition} after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
  );
  if (ended) {
    await stopTurnOnAgent(deps, e).catch((err: unknown) =>
      deps.logger.warn('dead letter: could not stop the turn on the agent', {
        error: String(err).slice(0, 300),
      }),
    );
  }
  return ended;
}
