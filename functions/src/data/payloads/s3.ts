import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider, Checksum, SourceData } from '@smithy/types';
import { assertSafeKey, type PayloadStore } from './payload-store';

/** SHA-256 (and HMAC-SHA-256 with a secret) from node:crypto, the shape the signer asks for. */
class Sha256 implements Checksum {
  private hash;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret ? createHmac('sha256', Buffer.from(this.secret as Uint8Array)) : createHash('sha256');
  }
  update(data: Uint8Array | string): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

export interface S3PayloadOptions {
  readonly bucket: string;
  readonly region: string;
  /** The process's credentials, shared with the DynamoDB client (one provider, resolved once). */
  readonly credentials: AwsCredentialIdentityProvider;
  /** Path-style endpoint (an S3-compatible server in tests); default the bucket's virtual host. */
  readonly endpoint?: string | undefined;
}

/**
 * Payloads as S3 objects, with two signed REST calls (PUT/GET object). The full S3 client would
 * add about 200 KB to every Lambda bundle (budget: 1 MB); the signer is already in it.
 */
export function s3PayloadStore(options: S3PayloadOptions): PayloadStore {
  const signer = new SignatureV4({
    service: 's3',
    region: options.region,
    credentials: options.credentials,
    sha256: Sha256,
    // S3 keys are signed as sent, not escaped twice.
    uriEscapePath: false,
  });
  const base = new URL(options.endpoint ?? `https://${options.bucket}.s3.${options.region}.amazonaws.com`);
  const hostname = base.host;
  const prefix = options.endpoint ? `/${options.bucket}` : '';
  const call = async (method: 'GET' | 'PUT', key: string, body?: string) => {
    assertSafeKey(key);
    const path = `${prefix}/${key}`;
    const payloadHash = createHash('sha256')
      .update(body ?? '')
      .digest('hex');
    const signed = await signer.sign({
      method,
      protocol: base.protocol,
      hostname,
      path,
      query: {},
      headers: {
        host: hostname,
        'x-amz-content-sha256': payloadHash,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    // fetch sets Host itself (the same value that was signed).
    const { host: _host, ...headers } = signed.headers;
    const res = await fetch(`${base.protocol}//${hostname}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    // The status only: S3's error bodies name the bucket and request ids.
    if (!res.ok) throw new Error(`S3 ${method} of a payload failed with HTTP ${res.status}`);
    return res;
  };
  return {
    async put(key, body) {
      await (await call('PUT', key, body)).arrayBuffer();
    },
    async get(key) {
      return (await call('GET', key)).text();
    },
  };
}
