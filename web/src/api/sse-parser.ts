/** One dispatched message of a `text/event-stream` (WHATWG HTML §9.2 "event stream interpretation"). */
export type SseMessage = { id: string | null; event: string; data: string };

/**
 * Incremental parser: feed decoded chunks, get complete messages. Chunks may split lines
 * anywhere (even between `\r` and `\n`), so partial lines are carried over.
 */
export function createSseParser() {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | null = null;
  let pendingCr = false;

  function line(text: string, out: SseMessage[]) {
    if (text === '') {
      if (data.length > 0) out.push({ id, event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) return; // comment, used for heartbeats
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  }

  return {
    push(chunk: string): SseMessage[] {
      const out: SseMessage[] = [];
      let text = chunk;
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== '\n' && ch !== '\r') continue;
        line(buffer.slice(start, i), out);
        if (ch === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
    /** The id of the last message seen, for `Last-Event-ID` on re-join. */
    lastId: () => id,
  };
}
