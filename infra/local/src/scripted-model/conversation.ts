/** Just enough of the Anthropic Messages request shape to read a conversation back. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content?: unknown; is_error?: boolean }
  | { type: string; [key: string]: unknown };

export interface Message {
  role: string;
  content: string | ContentBlock[];
}

export interface ToolOutcome {
  command: string;
  output: string;
  isError: boolean;
}

/** One thing that happened earlier in the conversation, in order. */
export type HistoryItem = { kind: 'prompt'; text: string } | ({ kind: 'tool' } & ToolOutcome);

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
/** codex and gemini-cli wrap harness facts (cwd, AGENTS.md, skills) in one tag per text part. */
const HARNESS_BLOCK = /^<([a-z_]+)[^>]*>[\s\S]*<\/\1>$/i;

/** A text part that is the CLI's own context, not the human's words. */
export const isHarnessText = (text: string): boolean => HARNESS_BLOCK.test(text.trim());

const blocks = (message: Message): ContentBlock[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;

const isText = (block: ContentBlock): block is { type: 'text'; text: string } =>
  block.type === 'text' && typeof block.text === 'string';

/** The human's words in a user message: its text blocks minus the CLI's `<system-reminder>`s. */
export const humanText = (message: Message): string =>
  blocks(message)
    .filter(isText)
    .map((block) => block.text.replace(REMINDER, '').trim())
    .filter((text) => text.length > 0)
    .join('\n');

const toolResults = (message: Message) =>
  blocks(message).filter((block) => block.type === 'tool_result') as Extract<
    ContentBlock,
    { type: 'tool_result' }
  >[];

/** The CLI adds a `role: "system"` entry with environment facts; it is not part of the dialogue. */
export const dialogue = (messages: Message[]): Message[] =>
  messages.filter((message) => message.role === 'user' || message.role === 'assistant');

/**
 * A user message with words of the human in it. When a session ended on a tool call (e.g. cut off
 * by max_turns), the CLI sends the next prompt in the same message as that tool's result.
 */
export const isHumanTurn = (message: Message): boolean =>
  message.role === 'user' && humanText(message).length > 0;

const resultText = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join('\n');
  }
  return '';
};

const commandOf = (input: unknown): string =>
  input && typeof input === 'object' && 'command' in input ? String(input.command) : JSON.stringify(input);

/** Pairs every tool_use with its tool_result, keyed by the tool_use id. */
export const toolOutcomes = (messages: Message[]): Map<string, ToolOutcome> => {
  const commands = new Map<string, string>();
  const outcomes = new Map<string, ToolOutcome>();
  for (const message of messages) {
    for (const block of blocks(message)) {
      if (block.type === 'tool_use' && typeof block.id === 'string')
        commands.set(block.id, commandOf(block.input));
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        outcomes.set(block.tool_use_id, {
          command: commands.get(block.tool_use_id) ?? '?',
          output: resultText(block.content),
          isError: block.is_error === true,
        });
      }
    }
  }
  return outcomes;
};

export const history = (messages: Message[]): HistoryItem[] => {
  const outcomes = toolOutcomes(messages);
  const items: HistoryItem[] = [];
  for (const message of messages) {
    // A tool result sharing a message with a prompt happened before that prompt was typed.
    for (const block of toolResults(message)) {
      const outcome = outcomes.get(block.tool_use_id);
      if (outcome) items.push({ kind: 'tool', ...outcome });
    }
    if (isHumanTurn(message)) items.push({ kind: 'prompt', text: humanText(message) });
  }
  return items;
};

/** The tool results in the last message, when the CLI is reporting back on a tool call. */
export const pendingOutcomes = (messages: Message[]): ToolOutcome[] => {
  const last = messages.at(-1);
  if (last?.role !== 'user' || isHumanTurn(last)) return [];
  const outcomes = toolOutcomes(messages);
  return toolResults(last).flatMap((block) => {
    const outcome = outcomes.get(block.tool_use_id);
    return outcome ? [outcome] : [];
  });
};
