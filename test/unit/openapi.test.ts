import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type AppDeps, createApp } from '@reprise/functions/api/app';
import { OPERATIONS, openApiDocument } from '@reprise/functions/api/openapi';
import { GENERATED_TYPES_PATH, generateOpenApiTypes } from '@reprise/functions/api/openapi-types';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

type Doc = {
  servers: unknown[];
  paths: Record<string, Record<string, { operationId: string; security?: unknown[]; responses: object }>>;
};
const doc = openApiDocument('0.1.0') as Doc;

/** Building the app only registers routes; nothing here is called, so the deps stay empty. */
const app = createApp({ version: 't', auth: {}, core: {}, scheduler: {} } as unknown as AppDeps);

const appRoutes = () =>
  new Set(
    app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
  );
const documented = () =>
  new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)));

describe('the OpenAPI document', () => {
  it('lists exactly the routes the app serves', () => {
    const inApp = appRoutes();
    const inDoc = documented();
    expect(inApp.size).toBeGreaterThan(20);
    expect(
      [...inApp].filter((r) => !inDoc.has(r)),
      'served but not documented',
    ).toEqual([]);
    expect(
      [...inDoc].filter((r) => !inApp.has(r)),
      'documented but not served',
    ).toEqual([]);
  });

  it('gives every operation a unique operationId, and 4XX answers to every authenticated one', () => {
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    for (const op of ops) {
      const statuses = Object.keys(op.responses);
      if (op.security?.length === 0) continue;
      expect(statuses, op.operationId).toEqual(expect.arrayContaining(['401', '429', '500']));
    }
    expect(doc.paths['/api/health']?.get?.security).toEqual([]);
    expect(doc.paths['/api/openapi.json']?.get?.security).toEqual([]);
    expect(Object.keys(OPERATIONS)).toContain('runTask');
  });

  it('passes Redocly lint with no errors and no warnings (offline, the committed redocly.yaml)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const { stdout } = await promisify(execFile)(
        join(root, 'node_modules/.bin/redocly'),
        ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json'],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      );
      const report = JSON.parse(stdout) as { totals: object; problems: unknown[] };
      expect(report.problems).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('has committed client types that match a fresh generation (npm run openapi:types)', async () => {
    const committed = await readFile(GENERATED_TYPES_PATH, 'utf8');
    expect(committed === (await generateOpenApiTypes()), 'stale: run npm run openapi:types').toBe(true);
  }, 60_000);
});
