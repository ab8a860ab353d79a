import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { TranscriptArchive } from './archive';

const isMissing = (error: unknown): boolean => {
  const name = (error as { name?: string })?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
};

/** One object per session under the agent's prefix; the client is created once by the entry point. */
export const createS3Archive = (client: S3Client, bucket: string, prefix = ''): TranscriptArchive => {
  const keyOf = (sessionId: string) => `${prefix}${sessionId}.jsonl`;
  return {
    save: async (sessionId, file) => {
      const body = await readFile(file);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(sessionId),
          Body: body,
          ContentType: 'application/x-ndjson',
        }),
      );
    },
    restore: async (sessionId, file) => {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(sessionId) }));
        const bytes = await object.Body?.transformToByteArray();
        if (!bytes) return false;
        await mkdir(dirname(file), { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        await writeFile(temp, bytes);
        await rename(temp, file);
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    has: async (sessionId) => {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(sessionId) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
};
