import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createDirArchive } from '@reprise/agent-image/archive/dir';
import { createS3Archive } from '@reprise/agent-image/archive/s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';

const temp = () => mkdtempSync(join(tmpdir(), 'ar-'));

describe('directory transcript archive', () => {
  it('saves, reports and restores a transcript', async () => {
    const archive = createDirArchive(temp());
    const source = join(temp(), 's1.jsonl');
    writeFileSync(source, '{"a":1}\n');
    expect(await archive.has('s1')).toBe(false);
    await archive.save('s1', source);
    expect(await archive.has('s1')).toBe(true);
    const target = join(temp(), 'deep', 'dir', 's1.jsonl');
    expect(await archive.restore('s1', target)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
    expect(await archive.restore('nope', join(temp(), 'x.jsonl'))).toBe(false);
  });
});

describe('S3 transcript archive', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());

  it('puts the transcript under the agent prefix', async () => {
    const source = join(temp(), 's1.jsonl');
    writeFileSync(source, '{"a":1}\n');
    await createS3Archive(new S3Client({}), 'bucket', 'acme/demo/').save('s1', source);
    const put = s3.commandCalls(PutObjectCommand)[0]?.args[0].input;
    expect(put).toMatchObject({ Bucket: 'bucket', Key: 'acme/demo/s1.jsonl' });
    expect(Buffer.from(put?.Body as Uint8Array).toString()).toBe('{"a":1}\n');
  });

  it('restores an archived transcript to disk', async () => {
    const body = { transformToByteArray: async () => new TextEncoder().encode('{"b":2}\n') };
    s3.on(GetObjectCommand, { Key: 'p/s2.jsonl' }).resolves({ Body: body as never });
    const target = join(temp(), 'x', 's2.jsonl');
    expect(await createS3Archive(new S3Client({}), 'bucket', 'p/').restore('s2', target)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{"b":2}\n');
  });

  it('answers false, not an error, when the object does not exist', async () => {
    s3.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'no', $metadata: {} }));
    s3.on(HeadObjectCommand).rejects(new NotFound({ message: 'no', $metadata: {} }));
    const archive = createS3Archive(new S3Client({}), 'bucket');
    expect(await archive.restore('s3', join(temp(), 's3.jsonl'))).toBe(false);
    expect(await archive.has('s3')).toBe(false);
  });

  it('propagates other S3 failures', async () => {
    s3.on(HeadObjectCommand).rejects(new Error('AccessDenied'));
    await expect(createS3Archive(new S3Client({}), 'bucket').has('s4')).rejects.toThrow('AccessDenied');
  });
});
