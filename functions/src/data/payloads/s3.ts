import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { assertSafeKey, type PayloadStore } from './payload-store';

/** Payloads as S3 objects; the client is created once by the composition root. */
export function s3PayloadStore(client: S3Client, bucket: string): PayloadStore {
  return {
    async put(key, body) {
      assertSafeKey(key);
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json' }),
      );
    },
    async get(key) {
      assertSafeKey(key);
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const text = await out.Body?.transformToString('utf-8');
      if (text === undefined) throw new Error(`Empty payload object ${key}`);
      return text;
    },
  };
}
