import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import * as z from 'zod/mini';
import type { AgentEndpoint, AgentFleet, AgentRef, AgentStatus, KnownAgent } from './agent-fleet';

/** The operations the fleet Lambda serves; the only place that holds ECS, EFS and IAM rights. */
export const FleetRequest = z.object({
  op: z.enum(['create', 'destroy', 'start', 'launch', 'stop', 'status', 'endpoint', 'token']),
  ref: z.object({ tenant: z.string(), agent: z.string() }),
});
export type FleetRequest = z.infer<typeof FleetRequest>;

export type FleetResponse =
  | { ok: true; value: AgentStatus | AgentEndpoint | string | null }
  | { ok: false; error: string };

/**
 * The AgentFleet as seen from the api and runner functions: each call is a synchronous invoke of
 * the fleet function. Keeping the control-plane SDKs out of the api bundle keeps it small and its
 * cold start fast, and keeps ECS/EFS/IAM permissions on one role.
 */
export class RemoteAgentFleet implements AgentFleet {
  /** Agent tokens by secret name, for the life of this Lambda instance (a new start keeps its secret). */
  private readonly tokens = new Map<string, string>();

  constructor(
    private readonly lambda: LambdaClient,
    private readonly functionName: string,
  ) {}

  private async call(op: FleetRequest['op'], ref: AgentRef): Promise<FleetResponse & { ok: true }> {
    const out = await this.lambda.send(
      new InvokeCommand({
        FunctionName: this.functionName,
        Payload: new TextEncoder().encode(JSON.stringify({ op, ref } satisfies FleetRequest)),
      }),
    );
    const body = JSON.parse(new TextDecoder().decode(out.Payload ?? new Uint8Array())) as FleetResponse;
    if (out.FunctionError || !body.ok)
      throw new Error(`fleet ${op} failed: ${body.ok ? out.FunctionError : body.error}`);
    return body;
  }

  async create(ref: AgentRef) {
    await this.call('create', ref);
  }
  async destroy(ref: AgentRef) {
    await this.call('destroy', ref);
  }
  /**
   * Only hands the start over (RunTask, about a second): nothing waits the one to three minutes a
   * Fargate start takes. ECS's Task State Change event reports the task, the handler checks its
   * health and dispatches the runs waiting for it (fleet/task-events.ts).
   */
  async start(ref: AgentRef): Promise<AgentStatus> {
    return (await this.call('launch', ref)).value as AgentStatus;
  }
  async stop(ref: AgentRef) {
    return (await this.call('stop', ref)).value as AgentStatus;
  }
  async status(ref: AgentRef) {
    return (await this.call('status', ref)).value as AgentStatus;
  }
  /** From the agent item when the caller has it: one DynamoDB read, no ECS call on a turn. */
  async endpoint(ref: AgentRef, known?: KnownAgent) {
    if (known === undefined) return (await this.call('endpoint', ref)).value as AgentEndpoint | null;
    const task = known.task;
    if (!task?.endpoint_url) return null;
    let token = this.tokens.get(task.token_ref);
    if (!token) {
      token = (await this.call('token', ref)).value as unknown as string;
      this.tokens.set(task.token_ref, token);
    }
    return { url: task.endpoint_url, token };
  }
  async close() {}
}

/** The fleet function's side: run one operation on the real fleet, never throw across the wire. */
export async function serveFleetRequest(fleet: AgentFleet, event: unknown): Promise<FleetResponse> {
  const parsed = FleetRequest.safeParse(event);
  if (!parsed.success) return { ok: false, error: 'invalid fleet request' };
  const { op, ref } = parsed.data;
  try {
    if (op === 'create' || op === 'destroy') {
      await fleet[op](ref);
      return { ok: true, value: null };
    }
    // Even a task already RUNNING counts as starting: the Task State Change handler records it.
    if (op === 'launch') {
      await fleet.start(ref, { wait: false });
      return { ok: true, value: 'starting' };
    }
    if (op === 'token') {
      if (!fleet.token) return { ok: false, error: 'this fleet has no agent tokens' };
      return { ok: true, value: await fleet.token(ref) };
    }
    if (op === 'start') return { ok: true, value: await fleet.start(ref) };
    return { ok: true, value: await fleet[op](ref) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
