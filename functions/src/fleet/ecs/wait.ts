import { DescribeTasksCommand, type ECSClient, StopTaskCommand, type Task } from '@aws-sdk/client-ecs';
import type { AgentRef } from '../agent-fleet';
import { AGENT_PORT } from './task-definition';
import { AgentStartError, describeStop, privateIp } from './task-state';

export interface WaitDeps {
  readonly ecs: ECSClient;
  readonly fetch: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
}

export interface WaitOptions {
  readonly cluster: string;
  readonly pollIntervalMs: number;
  /** One budget for both phases: RUNNING, then a healthy /health. */
  readonly timeoutMs: number;
}

const HEALTH_REQUEST_TIMEOUT_MS = 2_000;

/**
 * Polls DescribeTasks until the task is RUNNING, then the agent server's /health on the task's
 * private IP until it answers 2xx. A task that never gets healthy is stopped so that it does not
 * bill (and confuse status) forever.
 */
export async function waitUntilServing(
  deps: WaitDeps,
  options: WaitOptions,
  ref: AgentRef,
  task: Task,
): Promise<void> {
  const deadline = deps.now() + options.timeoutMs;
  const seconds = Math.round(options.timeoutMs / 1000);
  const taskArn = task.taskArn;
  let current = task;
  while (current.lastStatus !== 'RUNNING') {
    if (current.lastStatus === 'STOPPED') {
      throw new AgentStartError(
        ref,
        'stopped',
        `Agent task stopped while starting: ${describeStop(current) || 'no reason given'}`,
      );
    }
    if (deps.now() >= deadline) {
      await stop(deps, options, taskArn, 'Agent did not reach RUNNING in time');
      throw new AgentStartError(ref, 'timeout', `Agent task did not reach RUNNING within ${seconds} s`);
    }
    await deps.sleep(options.pollIntervalMs);
    const { tasks = [] } = await deps.ecs.send(
      new DescribeTasksCommand({ cluster: options.cluster, tasks: [taskArn!] }),
    );
    if (!tasks[0])
      throw new AgentStartError(ref, 'stopped', `Agent task ${taskArn} disappeared while starting`);
    current = tasks[0];
  }

  const ip = privateIp(current);
  if (!ip) throw new AgentStartError(ref, 'unhealthy', 'Agent task is RUNNING but has no private IP address');
  const url = `http://${ip}:${AGENT_PORT}/health`;
  for (;;) {
    if (await healthy(deps.fetch, url)) return;
    if (deps.now() >= deadline) {
      await stop(deps, options, taskArn, 'Agent server never answered /health');
      throw new AgentStartError(ref, 'unhealthy', `Agent server did not answer /health within ${seconds} s`);
    }
    await deps.sleep(options.pollIntervalMs);
  }
}

async function healthy(fetcher: typeof fetch, url: string): Promise<boolean> {
  try {
    const res = await fetcher(url, { signal: AbortSignal.timeout(HEALTH_REQUEST_TIMEOUT_MS) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    // Connection refused while the server boots is expected: keep polling until the deadline.
    return false;
  }
}

async function stop(
  deps: WaitDeps,
  options: WaitOptions,
  task: string | undefined,
  reason: string,
): Promise<void> {
  if (!task) return;
  await deps.ecs.send(new StopTaskCommand({ cluster: options.cluster, task, reason }));
}
