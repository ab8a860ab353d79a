import type { Agent, ChatDetail, ChatSummary, Execution } from '@reprise/functions/schemas';

export const T0 = '2026-12-01T10:00:00.000Z';

export const agent = (over: Partial<Agent> = {}): Agent => ({
  name: 'demo',
  runtime: 'claude',
  status: 'running',
  owner: 'bob@acme.test',
  shared_with: ['dana@acme.test'],
  created_at: T0,
  idle_timeout_seconds: 900,
  max_concurrent_runs: 4,
  last_active_at: null,
  ...over,
});

export const execution = (over: Partial<Execution> = {}): Execution => ({
  id: '01JEXEC0000000000000000001',
  agent: 'demo',
  runtime: 'claude',
  source: 'manual',
  status: 'failed',
  message: 'run: make deploy',
  model: 'claude-sonnet',
  response: 'The deploy failed.',
  error: { code: 'cli_failed', message: 'make: *** [deploy] Error 2' },
  owner_user_id: 'u-bob',
  triggered_by: { kind: 'user', id: 'u-bob' },
  claude_session_id: 'sess-exec-1',
  resumed_session_id: null,
  resumed_from_execution_id: null,
  chat_session_id: null,
  forked: false,
  cost_usd: 0.0123,
  context_used: 5000,
  context_max: 200000,
  num_turns: 2,
  tool_calls: [
    { name: 'Bash', input: { command: 'make deploy' }, is_error: true, output_preview: 'Error 2' },
  ],
  created_at: T0,
  started_at: T0,
  finished_at: T0,
  duration_ms: 4200,
  schedule_id: null,
  can_continue_as_chat: true,
  continued_in: [],
  waiting_for: null,
  ...over,
});

export const chatSummary = (over: Partial<ChatSummary> = {}): ChatSummary => ({
  id: 'chat-old',
  title: 'Earlier conversation',
  head_session_id: 'sess-old-head',
  resumed_from_execution_id: null,
  turns: 1,
  updated_at: T0,
  owner_user_id: 'u-bob',
  ...over,
});

export const chatDetail = (over: Partial<ChatDetail> = {}): ChatDetail => ({
  ...chatSummary(),
  agent: 'demo',
  messages: [
    { role: 'user', content: 'hello from before', execution_id: 'e-old', status: 'success', created_at: T0 },
    {
      role: 'assistant',
      content: 'Echo (turn 1): hello from before',
      execution_id: 'e-old',
      status: 'success',
      created_at: T0,
    },
  ],
  ...over,
});
