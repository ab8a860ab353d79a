import { describe, expect, it } from 'vitest';
import { createSseParser } from '~/api/sse-parser';

describe('createSseParser', () => {
  it('dispatches on a blank line with id, event and data', () => {
    const p = createSseParser();
    expect(p.push('id: 7\nevent: text\ndata: {"text":"hi"}\n\n')).toEqual([
      { id: '7', event: 'text', data: '{"text":"hi"}' },
    ]);
    expect(p.lastId()).toBe('7');
  });

  it('joins multi-line data and ignores comments used as heartbeats', () => {
    const p = createSseParser();
    expect(p.push(': heartbeat\n\ndata: a\ndata: b\n\n')).toEqual([
      { id: null, event: 'message', data: 'a\nb' },
    ]);
  });

  it('handles chunks split mid-line and CRLF split across chunks', () => {
    const p = createSseParser();
    expect(p.push('id: 1\r')).toEqual([]);
    expect(p.push('\nevent: te')).toEqual([]);
    expect(p.push('xt\r\ndata: x\r\n\r')).toEqual([{ id: '1', event: 'text', data: 'x' }]);
    expect(p.push('\ndata: y\n\n')).toEqual([{ id: '1', event: 'message', data: 'y' }]);
  });
});
