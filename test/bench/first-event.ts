import { median } from './stats';

/**
 * How long an event takes from being stored by the runner to reaching an SSE client: the client
 * notes when each `text` event arrives, then reads the events' stored times (JSON form).
 */
export async function benchFirstEvent(url: string, token: string, runs: number): Promise<number> {
  const delays: number[] = [];
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < runs; i++) {
    const res = await fetch(`${url}/api/agents/demo/task`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: 'sleep: 1' }),
    });
    const { execution_id: id } = (await res.json()) as { execution_id: string };
    const sse = await fetch(`${url}/api/executions/${id}/events`, { headers });
    const reader = sse.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let first: { seq: number; at: number } | null = null;
    while (!first) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      // One SSE block per event; its fields may come in any order.
      const block = buffer.split('\n\n').find((b) => /^event: text$/m.test(b));
      const seq = block && /^id: (\d+)$/m.exec(block)?.[1];
      if (seq) first = { seq: Number(seq), at: Date.now() };
    }
    await reader.cancel();
    const page = await fetch(`${url}/api/executions/${id}/events?format=json&after=0&wait=20`, { headers });
    const { events } = (await page.json()) as { events: { seq: number; created_at: string }[] };
    const stored = events.find((e) => e.seq === first?.seq);
    if (first && stored) delays.push(first.at - Date.parse(stored.created_at));
  }
  return median(delays);
}
