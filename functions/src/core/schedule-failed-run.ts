import type { AgentRecord } from '../data/stores/agents';
import type { ExecutionRecord } from '../data/stores/execution-record';
import type { ScheduleRecord } from '../data/stores/schedules';
import type { AppError } from '../lib/errors';
import { ulid } from '../lib/ids';

/** A scheduled run that could not start (agent stopped, …), recorded as failed so its owner sees why. */
export function failedRun(s: ScheduleRecord, agent: AgentRecord, e: AppError, at: string): ExecutionRecord {
  return {
    tenant: s.tenant,
    id: ulid(Date.parse(at)),
    agent: s.agent,
    runtime: agent.runtime,
    source: 'schedule',
    status: 'failed',
    message: s.message,
    model: null,
    response: null,
    error:
      e.code === 'agent_not_running'
        ? { code: 'agent_not_running', message: e.message }
        : // Typically the creator lost access to the agent: say so rather than "Agent not found".
          { code: 'internal', message: `The schedule could not run as its creator (${e.message})` },
    owner_user_id: s.owner_user_id,
    triggered_by: { kind: 'schedule', id: s.id },
    // It never ran, so there is no session to continue.
    claude_session_id: null,
    resumed_session_id: null,
    resumed_from_execution_id: null,
    chat_session_id: null,
    forked: false,
    cost_usd: null,
    context_used: null,
    context_max: null,
    num_turns: null,
    tool_calls: [],
    created_at: at,
    started_at: null,
    finished_at: at,
    duration_ms: null,
    schedule_id: s.id,
    timeout_seconds: s.timeout_seconds,
    options: {},
    lease_session_id: null,
  };
}
