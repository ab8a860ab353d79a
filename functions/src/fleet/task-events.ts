import type { Task } from '@aws-sdk/client-ecs';
import * as z from 'zod/mini';
import { agentBecameHealthy, agentStartFailed, type LifecycleDeps, pumpAgent } from '../core/agent-lifecycle';
import { agentOfStartedBy, agentResourceNames } from './ecs/names';
import { AGENT_PORT } from './ecs/task-definition';
import { describeStop, privateIp } from './ecs/task-state';

/** The part of EventBridge's "ECS Task State Change" event the lifecycle reads. */
export const TaskStateChange = z.object({
  'detail-type': z.literal('ECS Task State Change'),
  detail: z.object({
    taskArn: z.string(),
    lastStatus: z.string(),
    desiredStatus: z.optional(z.string()),
    startedBy: z.optional(z.string()),
    stopCode: z.optional(z.string()),
    stoppedReason: z.optional(z.string()),
    attachments: z.optional(z.array(z.unknown())),
    containers: z.optional(z.array(z.unknown())),
  }),
});
export type TaskStateChange = z.infer<typeof TaskStateChange>;

export interface TaskEventOptions {
  readonly stage: string;
  readonly fetch: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  /** How long this event waits for /health after RUNNING; the sweeper retries later starts. */
  readonly healthWaitMs: number;
  readonly pollIntervalMs: number;
}

/**
 * ECS tells the platform a task changed state, so no function waits for a Fargate start.
 * RUNNING on a starting agent → check /health, record the task (ARN, endpoint, token secret) on
 * the agent item and dispatch its queue. STOPPED while starting → the start failed: end the
 * waiting runs. STOPPED while running (crash, Fargate retirement) → mark it stopped; the next
 * run wakes it again.
 */
export async function handleTaskStateChange(
  deps: LifecycleDeps,
  options: TaskEventOptions,
  event: unknown,
): Promise<string> {
  const parsed = TaskStateChange.safeParse(event);
  if (!parsed.success) return 'ignored: not a task state change';
  const task = parsed.data.detail;
  const ref = agentOfStartedBy(options.stage, task.startedBy);
  if (!ref) return 'ignored: not an agent task of this stage';
  const agent = await deps.stores.agents.getAgent(ref.tenant, ref.agent);
  if (!agent) return 'ignored: agent gone';
  const log = deps.logger.child({ tenant: ref.tenant, agent: ref.agent, task: task.taskArn });

  if (task.lastStatus === 'RUNNING' && task.desiredStatus !== 'STOPPED') {
    if (agent.state !== 'starting') return `ignored: agent is ${agent.state ?? 'stopped'}`;
    const ip = privateIp(task as unknown as Task);
    if (!ip) return 'ignored: no address yet';
    const url = `http://${ip}:${AGENT_PORT}`;
    if (!(await healthyWithin(options, `${url}/health`))) {
      log.warn('agent task running but not healthy yet; the sweeper retries');
      return 'waiting: not healthy yet';
    }
    const names = agentResourceNames(options.stage, ref);
    await agentBecameHealthy(deps, agent, {
      task_arn: task.taskArn,
      endpoint_url: url,
      token_ref: names.secretName,
    });
    return 'running';
  }

  if (task.lastStatus === 'STOPPED') {
    const why = describeStop(task as unknown as Task) || 'no reason given';
    if (agent.state === 'starting') {
      await agentStartFailed(deps, agent, `its task stopped while starting: ${why}`);
      return 'start failed';
    }
    if (agent.task?.task_arn !== task.taskArn || agent.state === 'stopping') return 'ignored: not its task';
    log.warn('agent task stopped under a running agent', { reason: why });
    await deps.stores.agents.transition(agent, 'stopped', new Date(options.now()).toISOString(), {
      task: null,
    });
    await pumpAgent(deps, ref.tenant, ref.agent);
    return 'stopped';
  }
  return `ignored: ${task.lastStatus}`;
}

async function healthyWithin(options: TaskEventOptions, url: string): Promise<boolean> {
  const deadline = options.now() + options.healthWaitMs;
  for (;;) {
    try {
      const res = await options.fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.ok) return true;
    } catch {
      // The server is still booting: keep asking until the deadline.
    }
    if (options.now() >= deadline) return false;
    await options.sleep(options.pollIntervalMs);
  }
}
