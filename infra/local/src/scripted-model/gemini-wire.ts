import type { ServerResponse } from 'node:http';
import { type ContentBlock, isHarnessText, type Message } from './conversation';
import { openSse, type SpokenReply, streamPieces, textPieces } from './sse';
import { tokens } from './wire';

/** The shell tool gemini-cli 0.61 offers (`{command}`); the script's `Bash` call is spoken as this. */
export const GEMINI_SHELL_TOOL = 'run_shell_command';

// biome-ignore lint/suspicious/noExplicitAny: Gemini API parts are untyped JSON, narrowed field by field.
type Part = Record<string, any>;

const rawText = (response: unknown): string => {
  if (typeof response === 'string') return response;
  const value = response as Part | null;
  if (typeof value?.output === 'string') return value.output;
  if (typeof value?.error === 'string') return value.error;
  return JSON.stringify(response ?? '');
};

/** gemini-cli wraps shell output in `<untrusted_context>` with `Output:`, `Exit Code:`, `Process Group PGID:` lines. */
const outputOf = (text: string): string =>
  /(?:^|\n)Output: ([\s\S]*?)(?=\n(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID):|\n<\/untrusted_context>|$)/.exec(
    text,
  )?.[1] ?? text;

/** gemini-cli reports a failed command in its output ("Exit Code: 1") or as an `error` response. */
const isFailure = (response: unknown, text: string): boolean => {
  if ((response as Part | null)?.error) return true;
  const match = /exit code:?\s*(-?\d+)/i.exec(text);
  return match !== null && Number(match[1]) !== 0;
};

/**
 * Reads Gemini `contents` back as the Anthropic-shaped conversation the script understands. A
 * functionResponse answers the oldest unanswered functionCall of the same name (ids are optional).
 */
export const contentsToMessages = (contents: unknown): Message[] => {
  if (!Array.isArray(contents)) return [];
  const messages: Message[] = [];
  const open: { id: string; name: string }[] = [];
  const answered = new Set<string>();
  contents.forEach((content: Part, turn) => {
    const role = content?.role === 'model' ? 'assistant' : 'user';
    const blocks: ContentBlock[] = [];
    (Array.isArray(content?.parts) ? content.parts : []).forEach((part: Part, index: number) => {
      if (typeof part?.text === 'string' && part.thought !== true) {
        if (!isHarnessText(part.text)) blocks.push({ type: 'text', text: part.text });
      } else if (part?.functionCall) {
        const id = String(part.functionCall.id ?? `gem_${turn}_${index}`);
        open.push({ id, name: String(part.functionCall.name) });
        const args = part.functionCall.args ?? {};
        blocks.push({
          type: 'tool_use',
          id,
          name: String(part.functionCall.name),
          input: { command: String(args.command ?? JSON.stringify(args)) },
        });
      } else if (part?.functionResponse) {
        const name = String(part.functionResponse.name);
        const at = open.findIndex((call) =>
          part.functionResponse.id ? call.id === part.functionResponse.id : call.name === name,
        );
        const id = at >= 0 ? open.splice(at, 1)[0]!.id : String(part.functionResponse.id ?? name);

        // A resumed gemini-cli session repeats a tool's answer; one outcome per call.
        if (answered.has(id)) return;
        answered.add(id);
        const text = rawText(part.functionResponse.response);
        blocks.push({
          type: 'tool_result',
          tool_use_id: id,
          content: outputOf(text),
          is_error: isFailure(part.functionResponse.response, text),
        });
      }
    });
    if (blocks.length > 0) messages.push({ role, content: blocks });
  });
  return messages;
};

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export const sendGeminiError = (res: ServerResponse, status: number, message: string): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }));
};

export interface GeminiTurn {
  model: string;
  inputTokens: number;
  reply: SpokenReply;
}

const usage = (turn: GeminiTurn) => {
  const out = tokens(
    turn.reply.kind === 'text' ? turn.reply.text.length : JSON.stringify(turn.reply.input).length,
  );
  return {
    promptTokenCount: turn.inputTokens,
    candidatesTokenCount: out,
    totalTokenCount: turn.inputTokens + out,
  };
};

const chunk = (turn: GeminiTurn, parts: Part[], finished: boolean) => ({
  candidates: [
    {
      content: { role: 'model', parts },
      index: 0,
      ...(finished ? { finishReason: 'STOP' } : {}),
    },
  ],
  ...(finished ? { usageMetadata: usage(turn) } : {}),
  modelVersion: turn.model,
});

const callPart = (reply: Extract<SpokenReply, { kind: 'tool_use' }>): Part => ({
  functionCall: { id: reply.id, name: GEMINI_SHELL_TOOL, args: { command: reply.input.command } },
});

/** One non-streamed `generateContent` answer. */
export const geminiJson = (turn: GeminiTurn) =>
  chunk(turn, [turn.reply.kind === 'text' ? { text: turn.reply.text } : callPart(turn.reply)], true);

/** `streamGenerateContent?alt=sse`: text pieces as separate chunks, the last one carries usage and STOP. */
export const streamGemini = async (res: ServerResponse, turn: GeminiTurn): Promise<void> => {
  const stream = openSse(res);
  const { reply } = turn;
  if (reply.kind === 'tool_use') {
    stream.send(null, chunk(turn, [callPart(reply)], true));
    stream.end();
    return;
  }
  const { pieces, gapMs } = textPieces(reply);
  const last = pieces.length - 1;
  let index = 0;
  const finished = await streamPieces(stream, pieces, gapMs, (text) => {
    stream.send(null, chunk(turn, [{ text }], index === last));
    index += 1;
  });
  if (finished) stream.end();
};
