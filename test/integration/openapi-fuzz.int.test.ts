import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';
import { invalid, junk, pick, type Random, type Schema, seeded, valid } from './schema-fuzz';

/**
 * A bounded fuzz of the published contract: for every operation in /api/openapi.json, requests
 * with valid and invalid bodies, odd path and query parameters and odd headers. Whatever is sent,
 * the answer is never a 5xx and every error has the contract's body. Loopback only.
 */
const REQUESTS_PER_OPERATION = 14;
const SEED = Number(process.env.FUZZ_SEED ?? 20261203);

type Operation = { requestBody?: { content: { 'application/json': { schema: Schema } } } };
type Doc = { paths: Record<string, Record<string, Operation>> };

let stack: TestStack;
let tokens: string[];
let knownExecution: string;

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  const [bob, carol] = await Promise.all([
    clientFor(stack.url, 'bob@acme.test'),
    clientFor(stack.url, 'carol@globex.test'),
  ]);
  tokens = [bob.token, carol.token];
  knownExecution = (await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' })).body.id;
});
afterAll(() => stack?.stop());

// Path values: well-formed but unknown (no runs start: agents named here do not exist), a known
// finished execution, and garbage. `demo` only for reads, so the fuzz never starts a real turn.
const pathValue = (r: Random, param: string, method: string): string =>
  pick(r, [
    param === 'name' ? `fz-${Math.floor(r() * 1e6)}` : '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    param === 'name' ? (method === 'get' ? 'demo' : 'nope') : knownExecution,
    percentEncoded(String(junk(r))).slice(0, 300) || 'x',
  ]);

/** Every byte escaped (lone surrogates included, as UTF-8 replacement bytes). */
const percentEncoded = (text: string) =>
  [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const QUERY_NAMES = ['limit', 'cursor', 'status', 'source', 'owner_user_id', 'wait', 'after', 'format'];
const queryString = (r: Random): string => {
  const params = new URLSearchParams();
  for (const name of QUERY_NAMES) {
    if (r() < 0.3) {
      const value = pick(r, [String(junk(r)), '1', '0', '100', '101', 'json', 'sse', 'failed', 'chat']);
      params.set(name, name === 'wait' ? '0' : value.slice(0, 500));
    }
  }
  // Long-polls and SSE must not hold the fuzz: ask for JSON with no wait on events.
  params.set('format', 'json');
  params.set('wait', '0');
  return params.toString();
};

const headerSet = (r: Random): Record<string, string> => {
  const h: Record<string, string> = {};
  const auth = r();
  if (auth < 0.75) h.authorization = `Bearer ${pick(r, tokens)}`;
  else if (auth < 0.85) h.authorization = pick(r, ['Bearer ', 'Basic abc', 'Bearer x.y.z']);
  else if (auth < 0.9) h['x-api-key'] = pick(r, ['rk_nope', 'x'.repeat(300)]);
  const type = r();
  if (type < 0.8) h['content-type'] = 'application/json';
  else if (type < 0.9)
    h['content-type'] = pick(r, [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ]);
  if (r() < 0.2) h['idempotency-key'] = pick(r, ['k-1', 'has space', 'x'.repeat(300), 'ok-key']);
  if (r() < 0.2) h['last-event-id'] = pick(r, ['0', '-5', 'abc', '99999999999999999999']);
  if (r() < 0.1) h['x-request-id'] = pick(r, ['short', 'a'.repeat(100), 'good-request-id-123']);
  return h;
};

function bodyFor(r: Random, op: Operation): string | undefined {
  const schema = op.requestBody?.content['application/json'].schema;
  const roll = r();
  if (!schema) return roll < 0.7 ? undefined : JSON.stringify(junk(r));
  if (roll < 0.35) return JSON.stringify(valid(r, schema));
  if (roll < 0.85) return JSON.stringify(invalid(r, schema));
  if (roll < 0.95) return JSON.stringify(junk(r));
  return pick(r, ['{', 'not json', '{"message":', '\u0000', '[]']);
}

describe('the OpenAPI document, fuzzed', () => {
  it('never answers 5xx, and every error has the contract error body', async () => {
    const doc = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as Doc;
    const r = seeded(SEED);
    const failures: string[] = [];
    let sent = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (let i = 0; i < REQUESTS_PER_OPERATION; i++) {
          const url = `${path.replace(/\{(\w+)\}/g, (_, p: string) => pathValue(r, p, method))}?${queryString(r)}`;
          const body = method === 'get' ? undefined : bodyFor(r, op);
          const headers = headerSet(r);
          const res = await fetch(`${stack.url}${url}`, { method: method.toUpperCase(), headers, body });
          const text = await res.text();
          sent++;
          const errorShaped = () => {
            try {
              const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
              return typeof parsed.error?.code === 'string' && typeof parsed.error.message === 'string';
            } catch {
              return false;
            }
          };
          if (res.status >= 500 || (res.status >= 400 && !errorShaped())) {
            failures.push(
              `${method.toUpperCase()} ${url} ${JSON.stringify(headers)} ${body?.slice(0, 200)} → ${res.status} ${text.slice(0, 200)}`,
            );
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(200);
    expect(failures, `seed ${SEED}`).toEqual([]);
  });
});
