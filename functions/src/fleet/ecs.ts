import { randomBytes } from 'node:crypto';
import {
  DescribeTasksCommand,
  ListTasksCommand,
  RunTaskCommand,
  StopTaskCommand,
  type Task,
} from '@aws-sdk/client-ecs';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { AgentEndpoint, AgentFleet, AgentRef, AgentStatus } from './agent-fleet';
import type { EcsFleetConfig } from './ecs/config';
import { type AgentResourceNames, agentResourceNames, agentTags } from './ecs/names';
import { deprovisionAgent, type ProvisioningClients, provisionAgent } from './ecs/provisioning';
import { AGENT_PORT } from './ecs/task-definition';
import { AgentStartError, liveTaskStatus, newestFirst, privateIp, stoppedTaskStatus } from './ecs/task-state';
import { waitUntilServing } from './ecs/wait';

export { type EcsFleetConfig, readEcsFleetConfig } from './ecs/config';
export { AgentStartError } from './ecs/task-state';

/** One client per service, created once by the caller; the rest is injectable for tests. */
export interface EcsFleetDeps extends ProvisioningClients {
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  readonly newToken?: () => string;
}

/**
 * One Fargate task per running agent, its home an EFS access point. All state lives in AWS
 * (task tags, startedBy, deterministic names), so any Lambda instance can answer for any agent.
 */
export class EcsAgentFleet implements AgentFleet {
  private readonly tokens = new Map<string, string>();

  constructor(
    private readonly deps: EcsFleetDeps,
    private readonly config: EcsFleetConfig,
  ) {}

  private names(ref: AgentRef): AgentResourceNames {
    return agentResourceNames(this.config.stage, ref);
  }

  async create(ref: AgentRef): Promise<void> {
    const newToken = this.deps.newToken ?? (() => randomBytes(32).toString('base64url'));
    await provisionAgent(this.deps, this.config, ref, this.names(ref), newToken);
  }

  async destroy(ref: AgentRef): Promise<void> {
    await this.stop(ref);
    await deprovisionAgent(this.deps, this.names(ref));
    this.tokens.delete(key(ref));
  }

  /**
   * `wait: false` returns 'starting' as soon as ECS accepted the task: a Lambda must not leave
   * the start running after its response (the container is frozen), and Fargate needs longer
   * than API Gateway's 29 s. status() then reports the progress.
   */
  async start(ref: AgentRef, options: { wait?: boolean } = {}): Promise<AgentStatus> {
    // A task that is already live is waited for, never duplicated (double clicks, retries).
    const task = (await this.liveTasks(ref))[0] ?? (await this.runTask(ref));
    if (options.wait === false) return liveTaskStatus(task) === 'running' ? 'running' : 'starting';
    await waitUntilServing(
      {
        ecs: this.deps.ecs,
        fetch: this.deps.fetch ?? fetch,
        sleep: this.deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
        now: this.deps.now ?? Date.now,
      },
      {
        cluster: this.config.clusterArn,
        pollIntervalMs: this.config.pollIntervalMs,
        timeoutMs: this.config.startTimeoutMs,
      },
      ref,
      task,
    );
    return 'running';
  }

  async stop(ref: AgentRef): Promise<AgentStatus> {
    for (const task of await this.liveTasks(ref)) {
      await this.deps.ecs.send(
        new StopTaskCommand({
          cluster: this.config.clusterArn,
          task: task.taskArn,
          reason: 'Stopped by Reprise',
        }),
      );
    }
    return 'stopped';
  }

  async status(ref: AgentRef): Promise<AgentStatus> {
    const [live] = await this.liveTasks(ref);
    if (live) return liveTaskStatus(live);
    const [lastStopped] = await this.tasks(ref, 'STOPPED');
    return stoppedTaskStatus(lastStopped);
  }

  async endpoint(ref: AgentRef): Promise<AgentEndpoint | null> {
    const running = (await this.liveTasks(ref)).find((t) => t.lastStatus === 'RUNNING');
    const ip = running && privateIp(running);
    if (!ip) return null;
    return { url: `http://${ip}:${AGENT_PORT}`, token: await this.token(ref) };
  }

  /** Agents are tenants' long-lived tasks, not children of this process: a Lambda shutting down must not stop them. */
  async close(): Promise<void> {
    this.tokens.clear();
  }

  private async runTask(ref: AgentRef): Promise<Task> {
    const names = this.names(ref);
    const out = await this.deps.ecs.send(
      new RunTaskCommand({
        cluster: this.config.clusterArn,
        taskDefinition: names.family,
        launchType: 'FARGATE',
        count: 1,
        startedBy: names.startedBy,
        networkConfiguration: {
          awsvpcConfiguration: {
            subnets: [...this.config.subnetIds],
            securityGroups: [this.config.securityGroupId],
            assignPublicIp: 'DISABLED',
          },
        },
        tags: agentTags(this.config.stage, ref),
        enableECSManagedTags: true,
      }),
    );
    const failure = out.failures?.[0];
    if (failure || !out.tasks?.[0]) {
      const why = failure
        ? `${failure.reason ?? 'unknown'}${failure.detail ? `: ${failure.detail}` : ''}`
        : 'no task';
      throw new AgentStartError(
        ref,
        'placement',
        `ECS could not start agent ${ref.tenant}/${ref.agent} (${why})`,
      );
    }
    return out.tasks[0];
  }

  /** Tasks ECS still wants running for this agent, newest first. */
  private liveTasks(ref: AgentRef): Promise<Task[]> {
    return this.tasks(ref, 'RUNNING');
  }

  private async tasks(ref: AgentRef, desiredStatus: 'RUNNING' | 'STOPPED'): Promise<Task[]> {
    const cluster = this.config.clusterArn;
    const { taskArns = [] } = await this.deps.ecs.send(
      new ListTasksCommand({ cluster, startedBy: this.names(ref).startedBy, desiredStatus }),
    );
    if (taskArns.length === 0) return [];
    const { tasks = [] } = await this.deps.ecs.send(
      new DescribeTasksCommand({ cluster, tasks: taskArns.slice(0, 100) }),
    );
    return newestFirst(tasks);
  }

  async token(ref: AgentRef): Promise<string> {
    const cached = this.tokens.get(key(ref));
    if (cached) return cached;
    const { SecretString } = await this.deps.secrets.send(
      new GetSecretValueCommand({ SecretId: this.names(ref).secretName }),
    );
    if (!SecretString) throw new Error(`Agent ${ref.tenant}/${ref.agent} has no token secret`);
    this.tokens.set(key(ref), SecretString);
    return SecretString;
  }
}

const key = (ref: AgentRef): string => `${ref.tenant}/${ref.agent}`;
