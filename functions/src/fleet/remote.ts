import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import * as z from 'zod/mini';
import type { AgentEndpoint, AgentFleet, AgentRef, AgentStatus } from './agent-fleet';

/** The operations the fleet Lambda serves; the only place that holds ECS, EFS and IAM rights. */
export const FleetRequest = z.object({
  op: z.enum(['create', 'destroy', 'start', 'stop', 'status', 'endpoint']),
  ref: z.object({ tenant: z.string(), agent: z.string() }),
});
export type FleetRequest = z.infer<typeof FleetRequest>;

export type FleetResponse =
  | { ok: true; value: AgentStatus | AgentEndpoint | null }
  | { ok: false; error: string };

/**
 * The AgentFleet as seen from the api and runner functions: each call is a synchronous invoke of
 * the fleet function. Keeping the control-plane SDKs out of the api bundle keeps it small and its
 * cold start fast, and keeps ECS/EFS/IAM permissions on one role.
 */
export class RemoteAgentFleet implements AgentFleet {
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
   * A start waits for the task to run and pass /health (1–3 minutes) — longer than an API request
   * may take — so it is handed to the fleet function asynchronously; status shows `starting`.
   */
  async start(ref: AgentRef): Promise<AgentStatus> {
    await this.lambda.send(
      new InvokeCommand({
        FunctionName: this.functionName,
        InvocationType: 'Event',
        Payload: new TextEncoder().encode(JSON.stringify({ op: 'start', ref } satisfies FleetRequest)),
      }),
    );
    return 'starting';
  }
  async stop(ref: AgentRef) {
    return (await this.call('stop', ref)).value as AgentStatus;
  }
  async status(ref: AgentRef) {
    return (await this.call('status', ref)).value as AgentStatus;
  }
  async endpoint(ref: AgentRef) {
    return (await this.call('endpoint', ref)).value as AgentEndpoint | null;
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
    return { ok: true, value: await fleet[op](ref) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
