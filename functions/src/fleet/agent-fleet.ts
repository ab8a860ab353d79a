/**
 * Where agents run. Locally one agent-image server process per agent; in AWS one ECS task per
 * agent with its EFS access point as HOME. The API and the runner only ever see this interface.
 */
export type AgentStatus = 'running' | 'starting' | 'stopped' | 'failed';

export interface AgentRef {
  readonly tenant: string;
  readonly agent: string;
  /** Which CLI the agent server runs; absent means claude. */
  readonly runtime?: string;
}

/** How to reach a running agent server: base URL plus the bearer token it demands. */
export interface AgentEndpoint {
  readonly url: string;
  readonly token: string;
}

/** What the agent item says about its running task (see data/stores/agents.ts). */
export interface KnownAgent {
  readonly task?: {
    readonly task_arn: string;
    readonly endpoint_url: string | null;
    readonly token_ref: string;
  } | null;
}

export interface AgentFleet {
  /** Provision per-agent resources (home directory / EFS access point, role, task definition). */
  create(ref: AgentRef): Promise<void>;
  /** Remove per-agent resources. Stops the agent first if needed. */
  destroy(ref: AgentRef): Promise<void>;
  /**
   * Start the agent and resolve once its `/health` answers (or reject with the reason). With
   * `wait: false` (AWS) resolve `starting` once the start is accepted; the ECS Task State Change
   * handler reports it healthy.
   */
  start(ref: AgentRef, options?: { wait?: boolean }): Promise<AgentStatus>;
  stop(ref: AgentRef): Promise<AgentStatus>;
  status(ref: AgentRef): Promise<AgentStatus>;
  /**
   * The endpoint of a running agent, or null when it is not running. `known` is the agent item
   * already read: in AWS it records the running task, so no ECS call is needed.
   */
  endpoint(ref: AgentRef, known?: KnownAgent): Promise<AgentEndpoint | null>;
  /** The agent server's bearer token (AWS: from its secret); only the fleet function serves it. */
  token?(ref: AgentRef): Promise<string>;
  /** Stop everything this fleet started (process shutdown). */
  close(): Promise<void>;
}
