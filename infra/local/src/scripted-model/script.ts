import {
  dialogue,
  history,
  humanText,
  isHumanTurn,
  type Message,
  pendingOutcomes,
  type ToolOutcome,
} from './conversation';

/** What the scripted model answers; a pure function of the conversation it was sent. */
export type Reply =
  | { kind: 'text'; text: string; durationMs: number }
  | { kind: 'tool_use'; id: string; name: 'Bash'; input: { command: string } }
  | { kind: 'error'; status: number; message: string };

const RECAP = /what went wrong|what happened|recap/i;
const RUN = /^run:[ \t]*(\S.*)$/m;
const SLEEP = /^sleep:[ \t]*(\d{1,4}(?:\.\d{1,3})?)/m;
const MODEL_ERROR = /^model-error:[ \t]*(\d{3})/m;
const BIG = /^big:[ \t]*(\d{1,8})/m;
/** A run that fails after its command: the seeded "failed run to continue" of every runtime. */
const FAIL_AFTER_RUN = /^fail-after-run:[ \t]*(\d{3})/m;
const HEAD_CHARS = 500;

/**
 * `big: <n>` answers with exactly n characters (numbered lines with a 4-byte emoji), so tests can
 * check that a response of several MB is stored and read back whole.
 */
export const bigText = (chars: number): string => {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line = `line ${String(i).padStart(7, '0')} 😀 reprise\n`;
    lines.push(line);
    length += line.length;
  }
  const out = lines.join('').slice(0, chars);
  // Never end on half a surrogate pair: that would not survive UTF-8.
  return /[\uD800-\uDBFF]$/.test(out) ? `${out.slice(0, -1)}x` : out;
};

const head = (text: string): string => {
  const trimmed = text.trim();
  return trimmed.length > HEAD_CHARS ? `${trimmed.slice(0, HEAD_CHARS)}…` : trimmed;
};

export const describeOutcome = (outcome: ToolOutcome): string =>
  outcome.isError
    ? `\`${outcome.command}\` failed: ${head(outcome.output)}`
    : `ran \`${outcome.command}\`: exit 0\n${head(outcome.output)}`;

const text = (body: string): Reply => ({ kind: 'text', text: body, durationMs: 0 });

/** Everything before the current prompt, including tool results delivered alongside it. */
const recap = (upToPrompt: Message[]): string => {
  const items = history(upToPrompt).slice(0, -1);
  if (items.length === 0) return 'Recap: nothing happened before this message.';
  const lines = items.map((item, index) =>
    item.kind === 'prompt'
      ? `${index + 1}. You asked: ${item.text}`
      : `${index + 1}. ${describeOutcome(item)}`,
  );
  return `Recap of the conversation so far:\n${lines.join('\n')}`;
};

export const decide = (messages: Message[]): Reply => {
  const turns = dialogue(messages);
  const lastHuman = turns.findLastIndex(isHumanTurn);
  const prompt = lastHuman >= 0 ? humanText(turns[lastHuman]!) : '';

  const outcomes = pendingOutcomes(turns);
  const failAfter = FAIL_AFTER_RUN.exec(prompt);
  if (outcomes.length > 0 && failAfter) {
    return { kind: 'error', status: Number(failAfter[1]), message: `Scripted model error ${failAfter[1]}` };
  }
  if (outcomes.length > 0) return text(outcomes.map(describeOutcome).join('\n'));

  const modelError = MODEL_ERROR.exec(prompt);
  if (modelError) {
    return { kind: 'error', status: Number(modelError[1]), message: `Scripted model error ${modelError[1]}` };
  }
  const sleep = SLEEP.exec(prompt);
  if (sleep) {
    const seconds = Number(sleep[1]);
    return { kind: 'text', text: `Slept for ${seconds} seconds as asked.`, durationMs: seconds * 1000 };
  }
  const big = BIG.exec(prompt);
  if (big) return text(bigText(Number(big[1])));
  if (RECAP.test(prompt)) return text(recap(turns.slice(0, lastHuman + 1)));
  const run = RUN.exec(prompt);
  if (run)
    return {
      kind: 'tool_use',
      id: `toolu_scripted_${turns.length}`,
      name: 'Bash',
      input: { command: run[1]!.trim() },
    };

  const turn = turns.filter(isHumanTurn).length;
  return text(`Echo (turn ${turn}): ${prompt}`);
};
