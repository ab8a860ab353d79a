import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { s3PayloadStore } from '@reprise/functions/data/payloads/s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A tiny S3-compatible server: PUT stores, GET returns, and it records what it was sent. */
const objects = new Map<string, string>();
const seen: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.method === 'PUT') {
      objects.set(req.url ?? '', body);
      res.end();
    } else if (objects.has(req.url ?? '')) {
      res.end(objects.get(req.url ?? ''));
    } else {
      res.statusCode = 404;
      res.end('<Error><Code>NoSuchKey</Code><BucketName>secret-bucket</BucketName></Error>');
    }
  });
});
let endpoint = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const store = () =>
  s3PayloadStore({
    bucket: 'payloads',
    region: 'eu-west-1',
    endpoint,
    credentials: async () => ({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret', sessionToken: 'tok' }),
  });

describe('the S3 payload store', () => {
  it('puts and gets an object with SigV4-signed requests', async () => {
    const text = JSON.stringify('😀'.repeat(10_000));
    await store().put('acme/executions/E1/message.json', text);
    expect(await store().get('acme/executions/E1/message.json')).toBe(text);
    const put = seen.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe('/payloads/acme/executions/E1/message.json');
    expect(put.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=\S*host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    expect(put.headers['x-amz-security-token']).toBe('tok');
  });

  it('fails a missing object without repeating what S3 said', async () => {
    await expect(store().get('acme/executions/E2/response.json')).rejects.toThrow(
      'S3 GET of a payload failed with HTTP 404',
    );
    await expect(store().get('acme/executions/E2/response.json')).rejects.not.toThrow(/secret-bucket/);
  });

  it('refuses keys that could leave its prefix', async () => {
    await expect(store().put('../other/x.json', '{}')).rejects.toThrow('Unsafe payload key');
  });
});
