import { median } from './stats';

/**
 * From a stopped agent to the first streamed text of a turn as an SSE client sees it: stop the
 * agent, submit, follow the events. Covers the wake (agent server start), dispatch and the turn's
 * first model output.
 */
export async function benchWake(url: string, token: string, runs: number): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const stop = await fetch(`${url}/api/agents/demo/stop`, { method: 'POST', headers });
    const stopped = (await stop.json()) as { status: string };
    if (stopped.status !== 'stopped') throw new Error(`demo did not stop (${stopped.status})`);
    const t0 = performance.now();
    const res = await fetch(`${url}/api/agents/demo/task`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: `wake ${i}` }),
    });
    const { execution_id: id } = (await res.json()) as { execution_id: string };
    const sse = await fetch(`${url}/api/executions/${id}/events`, { headers });
    const reader = sse.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended before any text');
      buffer += decoder.decode(value, { stream: true });
      if (buffer.split('\n\n').some((b) => /^event: text$/m.test(b))) break;
    }
    times.push(performance.now() - t0);
    await reader.cancel();
    // Let the turn finish so the next stop does not cut it off.
    await fetch(`${url}/api/executions/${id}/events?format=json&after=0&wait=20`, { headers });
  }
  return median(times);
}
