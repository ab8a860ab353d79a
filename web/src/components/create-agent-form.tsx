import type { Agent, CreateAgentRequest } from '@reprise/functions/schemas';
import { createSignal, For, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';

/** The coding-agent CLIs an agent can run; the server validates the same list. */
const RUNTIMES: { value: NonNullable<CreateAgentRequest['runtime']>; label: string }[] = [
  { value: 'claude', label: 'Claude Code' },
  { value: 'codex', label: 'Codex' },
  { value: 'gemini', label: 'Gemini CLI' },
];

/** Name and runtime of a new agent; the runtime is fixed for the agent's life. */
export function CreateAgentForm(props: {
  create: (body: CreateAgentRequest) => Promise<Agent>;
  onCreated: (agent: Agent) => void;
}) {
  const [name, setName] = createSignal('');
  const [runtime, setRuntime] = createSignal<CreateAgentRequest['runtime']>('claude');
  const [error, setError] = createSignal<string | null>(null);
  const [saving, setSaving] = createSignal(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      props.onCreated(await props.create({ name: name().trim(), runtime: runtime() }));
      setName('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form class="card create-agent-form" data-testid="create-agent-form" onSubmit={submit}>
      <Show when={error()}>
        <p class="banner banner-error" role="alert">
          {error()}
        </p>
      </Show>
      <div class="form-grid">
        <div class="form-field">
          <label for="create-agent-name">Name</label>
          <input
            id="create-agent-name"
            data-testid="create-agent-name"
            required
            value={name()}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="form-field">
          <label for="create-agent-runtime">Runtime</label>
          <select
            id="create-agent-runtime"
            data-testid="create-agent-runtime"
            value={runtime()}
            onChange={(e) => setRuntime(e.currentTarget.value as CreateAgentRequest['runtime'])}
          >
            <For each={RUNTIMES}>{(r) => <option value={r.value}>{r.label}</option>}</For>
          </select>
        </div>
      </div>
      <div class="form-actions">
        <button
          type="submit"
          class="button button-primary"
          data-testid="create-agent-submit"
          disabled={saving()}
        >
          Create agent
        </button>
      </div>
    </form>
  );
}
