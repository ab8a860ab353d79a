/** One server-sent event of a whole response body, its data parsed as JSON. */
export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the payload field by field
  data: any;
}

/** Splits a complete SSE body (the server ended it) into its events; comment-only blocks are skipped. */
export const parseSse = (body: string): SseEvent[] =>
  body
    .split('\n\n')
    .filter((block) => /^(event|data):/m.test(block))
    .map((block) => ({
      id: /^id: (.*)$/m.exec(block)?.[1],
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'),
    }));
