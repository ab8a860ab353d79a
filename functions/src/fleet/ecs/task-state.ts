import type { Task } from '@aws-sdk/client-ecs';
import type { AgentRef, AgentStatus } from '../agent-fleet';

/** Why a start failed; the API shows the agent as failed with this message. */
export type AgentStartFailure = 'placement' | 'stopped' | 'timeout' | 'unhealthy';

export class AgentStartError extends Error {
  constructor(
    readonly ref: AgentRef,
    readonly failure: AgentStartFailure,
    message: string,
  ) {
    super(message);
    this.name = 'AgentStartError';
  }
}

const STARTING = new Set(['PROVISIONING', 'PENDING', 'ACTIVATING']);

/**
 * Stop codes that mean the agent died rather than was stopped on purpose. `UserInitiated` is our
 * own StopTask; `ServiceSchedulerInitiated` cannot happen for standalone tasks.
 */
const ERROR_STOP_CODES = new Set([
  'TaskFailedToStart',
  'EssentialContainerExited',
  'SpotInterruption',
  'TerminationNotice',
]);

/** Status of a task ECS still wants running (desiredStatus RUNNING). */
export function liveTaskStatus(task: Task): AgentStatus {
  if (task.lastStatus === 'RUNNING') return 'running';
  if (task.lastStatus && STARTING.has(task.lastStatus)) return 'starting';
  return 'stopped';
}

/** Status of the most recent stopped task (ECS keeps stopped tasks for about an hour). */
export function stoppedTaskStatus(task: Task | undefined): AgentStatus {
  return task?.stopCode && ERROR_STOP_CODES.has(task.stopCode) ? 'failed' : 'stopped';
}

export const newestFirst = (tasks: Task[]): Task[] =>
  [...tasks].sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0));

/** The task's private IPv4 address from its awsvpc network interface attachment. */
export function privateIp(task: Task): string | undefined {
  const eni = task.attachments?.find((a) => a.type === 'ElasticNetworkInterface');
  return eni?.details?.find((d) => d.name === 'privateIPv4Address')?.value;
}

export const describeStop = (task: Task): string =>
  [task.stoppedReason, task.stopCode && `(${task.stopCode})`, containerReason(task)]
    .filter(Boolean)
    .join(' ');

const containerReason = (task: Task): string | undefined => {
  const container = task.containers?.find((c) => c.reason || c.exitCode !== undefined);
  if (!container) return undefined;
  return container.reason ?? `container exited with code ${container.exitCode}`;
};
