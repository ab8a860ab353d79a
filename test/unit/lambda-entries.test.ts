import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';

/** What the CDK api stack sets; nothing here is contacted by a health check. */
const ENV = {
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'reprise-test',
  PAYLOAD_BUCKET: 'reprise-test-payloads',
  JWKS_URL: 'https://cognito-idp.us-east-1.amazonaws.com/pool/.well-known/jwks.json',
  JWT_ISSUER: 'https://cognito-idp.us-east-1.amazonaws.com/pool',
  JWT_AUDIENCE: 'client',
  FLEET_FUNCTION_NAME: 'reprise-test-fleet',
  RUNNER_FUNCTION_NAME: 'reprise-test-runner',
  SCHEDULE_GROUP: 'reprise-test',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
  SCHEDULED_FUNCTION_ARN: 'arn:aws:lambda:us-east-1:123456789012:function:scheduled',
  CORS_ORIGIN: 'https://d111.cloudfront.net',
};

const event = (path: string, httpMethod = 'GET', headers: Record<string, string> = {}) => ({
  resource: '/{proxy+}',
  path,
  httpMethod,
  headers,
  multiValueHeaders: {},
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  pathParameters: null,
  stageVariables: null,
  requestContext: { path, httpMethod, identity: { sourceIp: '127.0.0.1' }, requestId: 'r-1' },
  body: null,
  isBase64Encoded: false,
});

/** The Lambda runtime's streaming globals, as far as hono's streamHandle uses them. */
class CapturedStream extends Writable {
  chunks: Buffer[] = [];
  meta: { statusCode?: number; headers?: Record<string, string> } = {};
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.chunks.push(Buffer.from(chunk));
    done();
  }
}

beforeAll(() => {
  Object.assign(process.env, ENV);
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (fn: unknown) => fn,
      HttpResponseStream: {
        from: (stream: CapturedStream, meta: CapturedStream['meta']) => Object.assign(stream, { meta }),
      },
    },
  });
});

describe('the Lambda entry points', () => {
  it('answers API Gateway through the buffered handler', async () => {
    const { handler } = await import('@reprise/functions/api/handler');
    const res = (await handler(event('/api/health') as never, {} as never)) as {
      statusCode: number;
      body: string;
    };
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
  });

  it("answers the SPA's CORS preflight for its own origin only", async () => {
    const { handler } = await import('@reprise/functions/api/handler');
    const preflight = (origin: string) =>
      handler(
        event('/api/agents/demo/task', 'OPTIONS', {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,idempotency-key',
        }) as never,
        {} as never,
      ) as Promise<{ multiValueHeaders: Record<string, string[]> }>;
    const ours = await preflight(ENV.CORS_ORIGIN);
    expect(ours.multiValueHeaders['access-control-allow-origin']).toEqual([ENV.CORS_ORIGIN]);
    expect(ours.multiValueHeaders['access-control-allow-headers']?.[0]).toContain('Idempotency-Key');
    const theirs = await preflight('https://evil.example');
    expect(theirs.multiValueHeaders['access-control-allow-origin']).not.toEqual(['https://evil.example']);
  });

  it('answers through the streaming handler with status and headers first', async () => {
    const { handler } = await import('@reprise/functions/api/stream-handler');
    const stream = new CapturedStream();
    await (handler as unknown as (e: unknown, s: Writable, c: unknown) => Promise<void>)(
      event('/api/me'),
      stream,
      {},
    );
    expect(stream.meta.statusCode).toBe(401);
    expect(JSON.parse(Buffer.concat(stream.chunks).toString())).toEqual({
      error: { code: 'unauthorized', message: 'Authentication required' },
    });
  });

  it('builds the dead-letter consumer and drops a record that is not a failed runner invoke', async () => {
    const { handler } = await import('@reprise/functions/dead-letter/handler');
    expect(await handler({ Records: [{ body: 'not json' }] })).toEqual({ ended: 0 });
  });
});
