import { createApp } from '@reprise/functions/api/app';
import { createAuthenticator } from '@reprise/functions/api/auth';
import type { SchedulingDeps } from '@reprise/functions/core/schedule-deps';
import { fireSchedule } from '@reprise/functions/core/schedule-fire';
import { waitForTerminal } from '@reprise/functions/core/wait';
import { createLocalCron, type LocalCron, loadSchedules } from '@reprise/functions/scheduling/local-cron';
import { Schedule } from '@reprise/functions/schemas';
import { createRemoteJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, devToken, startLocalStack, type TestStack } from '../helpers/local-stack';

// biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field
type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
const MINUTE = 60_000;
/** The cron's own clock, far from the wall clock, so only this test decides when a minute passes. */
const T0 = Date.parse('2030-06-15T12:00:30Z');

let stack: TestStack;
let deps: SchedulingDeps;
let cron: LocalCron;
let cronNow = T0;
const as: Record<string, Call> = {};

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  deps = stack.platform.core;
  // A cron on the test's own clock, served by a second app over the stack's core, so tests decide
  // when a minute has passed instead of waiting for one.
  cron = createLocalCron(deps, { clock: { now: () => cronNow } });
  const jwks = `${stack.url}/auth/dev/jwks.json`;
  const auth = createAuthenticator(
    { issuer: `${stack.url}/auth/dev`, audience: 'reprise-local', jwksUrl: jwks },
    createRemoteJWKSet(new URL(jwks)),
    deps.stores.apiKeys,
  );
  const app = createApp({ version: 'test', auth, core: deps, scheduler: cron });
  for (const user of ['alice@acme.test', 'bob@acme.test', 'dana@acme.test', 'carol@globex.test']) {
    const token = await devToken(stack.url, user);
    as[user.split('@')[0] as string] = async (method, path, body) => {
      const res = await app.request(path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
  }
});
afterAll(() => stack?.stop());

const call = (user: string): Call => as[user] as Call;
const create = (user: string, body: Record<string, unknown>) =>
  call(user)('POST', '/api/agents/demo/schedules', { name: 'nightly', message: 'hello from cron', ...body });
const finished = async (id: string) => {
  const e = await deps.stores.executions.getExecution('acme', id);
  return e ? (await waitForTerminal(deps, e, 30_000)).execution : null;
};
const scheduledRuns = async (scheduleId: string) =>
  (
    await deps.stores.executions.listExecutionsByAgent('acme', 'demo', { limit: 100, source: 'schedule' })
  ).items.filter((e) => e.schedule_id === scheduleId);

describe('schedule validation', () => {
  it.each([
    [{ cron: '* * * * * *' }, 'cron', /expected 5 fields/],
    [{ cron: 'every minute please' }, 'cron', /cron/],
    [{ cron: '0 0 1 * MON' }, 'cron', /not both/],
    [{ cron: '0 9 * * *', timezone: 'Mars/Olympus' }, 'timezone', /IANA time zone/],
  ])('rejects %j with a 400 naming %s', async (body, field, message) => {
    const res = await create('bob', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toMatch(message);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it('rejects a body without a message or cron', async () => {
    const res = await call('bob')('POST', '/api/agents/demo/schedules', { name: 'x', cron: '* * * * *' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
  });
});

describe('schedules API and access', () => {
  let bobs: string;

  it('creates a schedule that matches the contract, in UTC by default', async () => {
    const res = await create('bob', { cron: '0 3 1 1 *' });
    expect(res.status).toBe(201);
    expect(() => Schedule.parse(res.body)).not.toThrow();
    expect(res.body).toMatchObject({
      agent: 'demo',
      timezone: 'UTC',
      enabled: true,
      owner_user_id: 'usr-bob',
    });
    expect(res.body.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(res.body.next_run_at).toMatch(/-01-01T03:00:00/);
    bobs = res.body.id;
  });

  it('lists it to everyone who sees the agent and to nobody else', async () => {
    for (const user of ['bob', 'dana', 'alice']) {
      const res = await call(user)('GET', '/api/agents/demo/schedules');
      expect(res.body.items.map((s: { id: string }) => s.id)).toContain(bobs);
    }
    expect((await call('carol')('GET', '/api/agents/demo/schedules')).status).toBe(404);
    expect(
      (await call('carol')('PUT', `/api/schedules/${bobs}`, { name: 'x', cron: '0 3 1 1 *', message: 'm' }))
        .status,
    ).toBe(404);
    expect((await call('carol')('POST', `/api/schedules/${bobs}/run`)).status).toBe(404);
  });

  it('lets only the creator, the agent owner or an admin change it (403 otherwise)', async () => {
    const body = { name: 'nightly', cron: '0 4 1 1 *', message: 'changed', timezone: 'Europe/Berlin' };
    const dana = await call('dana')('PUT', `/api/schedules/${bobs}`, body);
    expect(dana.status).toBe(403);
    expect(dana.body.error.code).toBe('forbidden');
    expect((await call('dana')('DELETE', `/api/schedules/${bobs}`)).status).toBe(403);
    expect((await call('dana')('POST', `/api/schedules/${bobs}/run`)).status).toBe(403);
    const alice = await call('alice')('PUT', `/api/schedules/${bobs}`, { ...body, enabled: false });
    expect(alice.status).toBe(200);
    // The creator stays the owner: the runs remain bob's.
    expect(alice.body).toMatchObject({
      timezone: 'Europe/Berlin',
      enabled: false,
      owner_user_id: 'usr-bob',
      next_run_at: null,
    });
    const danas = await create('dana', { cron: '0 5 1 1 *' });
    expect(danas.status).toBe(201);
    expect(danas.body.owner_user_id).toBe('usr-dana');
    expect((await call('bob')('DELETE', `/api/schedules/${danas.body.id}`)).status).toBe(204);
  });

  it('deletes a schedule; later reads, changes and fires find nothing', async () => {
    expect((await call('bob')('DELETE', `/api/schedules/${bobs}`)).status).toBe(204);
    expect((await call('bob')('GET', `/api/schedules/${bobs}`)).status).toBe(404);
    expect((await call('bob')('DELETE', `/api/schedules/${bobs}`)).status).toBe(404);
    expect(await fireSchedule(deps, { tenant: 'acme', schedule_id: bobs })).toEqual({
      outcome: 'skipped',
      reason: 'not_found',
    });
    expect(await scheduledRuns(bobs)).toEqual([]);
  });
});

describe('scheduled runs (local cron, injected clock, real CLI)', () => {
  let scheduleId: string;
  let run: { id: string; claude_session_id: string };

  it('creates exactly one execution when the schedule falls due, however often it fires', async () => {
    cronNow = T0;
    const created = await create('bob', {
      name: 'every minute',
      cron: '* * * * *',
      message: 'run: echo scheduled',
    });
    scheduleId = created.body.id;
    expect(await cron.tick(T0 + 20_000)).toEqual([]);
    const fired = await cron.tick(T0 + MINUTE);
    expect(fired).toEqual([
      { tenant: 'acme', schedule_id: scheduleId, scheduled_at: '2030-06-15T12:01:00.000Z' },
    ]);
    // The same minute again: a second tick, EventBridge's at-least-once redelivery, a second process.
    await cron.tick(T0 + MINUTE);
    const again = await Promise.all([
      fireSchedule(deps, fired[0]!),
      fireSchedule(deps, { ...fired[0]!, scheduled_at: '2030-06-15T12:01:00Z' }),
    ]);
    expect(again.map((r) => r.outcome)).toEqual(['duplicate', 'duplicate']);
    const runs = await scheduledRuns(scheduleId);
    expect(runs).toHaveLength(1);
    const e = await finished(runs[0]!.id);
    expect(e).toMatchObject({
      status: 'success',
      source: 'schedule',
      schedule_id: scheduleId,
      owner_user_id: 'usr-bob',
      triggered_by: { kind: 'schedule', id: scheduleId },
    });
    expect(e?.claude_session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(e?.response).toContain('echo scheduled');
    run = { id: e!.id, claude_session_id: e!.claude_session_id! };
  });

  it('lets its creator continue it as a chat, and an admin, but not another operator', async () => {
    const bob = await clientFor(stack.url, 'bob@acme.test');
    const dana = await clientFor(stack.url, 'dana@acme.test');
    const alice = await clientFor(stack.url, 'alice@acme.test');
    expect((await bob.call('GET', `/api/executions/${run.id}`)).body.can_continue_as_chat).toBe(true);
    expect((await dana.call('GET', `/api/executions/${run.id}`)).body.can_continue_as_chat).toBe(false);
    const resume = {
      message: 'what went wrong',
      resume_session_id: run.claude_session_id,
      fork_session: true,
      start_chat: true,
    };

    const byBob = await bob.call('POST', '/api/agents/demo/task', resume);
    expect(byBob.status).toBe(202);
    expect(byBob.body.chat_session_id).toEqual(expect.any(String));
    const bobTurn = await finished(byBob.body.execution_id);
    expect(bobTurn?.response).toContain('echo scheduled');

    const byDana = await dana.call('POST', '/api/agents/demo/task', resume);
    expect(byDana.status).toBe(404);
    expect(byDana.body.error.code).toBe('session_not_found');

    const byAlice = await alice.call('POST', '/api/agents/demo/task', resume);
    expect(byAlice.status).toBe(202);
    await finished(byAlice.body.execution_id);
  });

  it('runs now on request, answered like a task', async () => {
    const res = await call('bob')('POST', `/api/schedules/${scheduleId}/run`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      // The agent is up with a free slot: the run is started in the same write that stores it.
      status: 'running',
      events_url: `/api/executions/${res.body.execution_id}/events`,
    });
    expect(res.body.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const e = await finished(res.body.execution_id);
    expect(e).toMatchObject({ source: 'schedule', schedule_id: scheduleId, owner_user_id: 'usr-bob' });
    expect(e?.triggered_by).toEqual({ kind: 'user', id: 'usr-bob' });
  });

  it('does nothing while the schedule is disabled', async () => {
    const before = (await scheduledRuns(scheduleId)).length;
    const put = await call('bob')('PUT', `/api/schedules/${scheduleId}`, {
      name: 'every minute',
      cron: '* * * * *',
      message: 'run: echo scheduled',
      enabled: false,
    });
    expect(put.status).toBe(200);
    expect(await cron.tick(T0 + 5 * MINUTE)).toEqual([]);
    expect(
      await fireSchedule(deps, {
        tenant: 'acme',
        schedule_id: scheduleId,
        scheduled_at: '2030-06-15T12:06:00Z',
      }),
    ).toEqual({ outcome: 'skipped', reason: 'disabled' });
    expect(await scheduledRuns(scheduleId)).toHaveLength(before);
  });

  it('removes the schedules and their triggers when the agent is deleted', async () => {
    expect((await call('bob')('POST', '/api/agents', { name: 'short-lived' })).status).toBe(201);
    const made = await call('bob')('POST', '/api/agents/short-lived/schedules', {
      name: 'often',
      cron: '* * * * *',
      message: 'hello',
    });
    expect(made.status).toBe(201);
    expect((await call('bob')('DELETE', '/api/agents/short-lived')).status).toBe(204);
    expect((await call('bob')('GET', `/api/schedules/${made.body.id}`)).status).toBe(404);
    const fired = await cron.tick(T0 + 30 * MINUTE);
    expect(fired.map((f) => f.schedule_id)).not.toContain(made.body.id);
  });

  it('frees the slot for a retry when nothing was written, keeps it once the execution exists', async () => {
    const created = await create('bob', { name: 'yearly', cron: '0 3 1 1 *', message: 'hello from cron' });
    const event = { tenant: 'acme', schedule_id: created.body.id, scheduled_at: '2030-01-01T03:00:00Z' };
    const tableDown = {
      ...deps,
      stores: {
        ...deps.stores,
        executions: Object.assign(Object.create(deps.stores.executions), {
          createWrite: async () => {
            throw new Error('throttled');
          },
        }),
      },
    };
    await expect(fireSchedule(tableDown, event)).rejects.toThrow('throttled');
    const retried = await fireSchedule(deps, event);
    expect(retried.outcome).toBe('created');
    const slot = '2030-01-01T03:00:00.000Z';
    expect(await deps.stores.schedules.getScheduledRunExecution('acme', created.body.id, slot)).toBe(
      'execution_id' in retried ? retried.execution_id : null,
    );
    await finished('execution_id' in retried ? retried.execution_id : '');

    const dispatchDown = {
      ...deps,
      dispatcher: {
        dispatch: async () => {
          throw new Error('invoke failed');
        },
      },
    };
    const next = { ...event, scheduled_at: '2031-01-01T03:00:00Z' };
    await expect(fireSchedule(dispatchDown, next)).rejects.toThrow('invoke failed');
    expect((await fireSchedule(deps, next)).outcome).toBe('duplicate');
    expect(await scheduledRuns(created.body.id)).toHaveLength(2);
  });

  it('wakes a stopped agent for a scheduled run and for Run now', async () => {
    await call('bob')('PUT', `/api/schedules/${scheduleId}`, {
      name: 'every minute',
      cron: '* * * * *',
      message: 'run: echo scheduled',
    });
    const bob = await clientFor(stack.url, 'bob@acme.test');
    expect((await bob.call('POST', '/api/agents/demo/stop')).status).toBe(202);
    const before = new Set((await scheduledRuns(scheduleId)).map((e) => e.id));
    expect(await cron.tick(T0 + 10 * MINUTE)).toHaveLength(1);
    const fresh = (await scheduledRuns(scheduleId)).filter((e) => !before.has(e.id));
    expect(fresh).toHaveLength(1);
    const run = await finished(fresh[0]!.id);
    expect(run).toMatchObject({ status: 'success', source: 'schedule', owner_user_id: 'usr-bob' });
    expect((await bob.call('POST', '/api/agents/demo/stop')).status).toBe(202);
    const now = await call('bob')('POST', `/api/schedules/${scheduleId}/run`);
    expect(now.status).toBe(202);
    expect((await finished(now.body.execution_id))?.status).toBe('success');
  });
});

describe('local start-up', () => {
  it('registers the enabled schedules already in the table, across tenants', async () => {
    const paused = await create('bob', { name: 'paused', cron: '* * * * *', enabled: false });
    const fresh = createLocalCron(deps, { clock: { now: () => T0 }, fire: async () => {} });
    const count = await loadSchedules(deps, fresh);
    const listed = await call('bob')('GET', '/api/agents/demo/schedules');
    expect(count).toBe(listed.body.items.length);
    const due = await fresh.tick(T0 + MINUTE);
    const ids = due.map((e) => e.schedule_id);
    const everyMinute = listed.body.items.filter(
      (s: { cron: string; enabled: boolean }) => s.enabled && s.cron === '* * * * *',
    );
    expect(ids.sort()).toEqual(everyMinute.map((s: { id: string }) => s.id).sort());
    expect(ids).not.toContain(paused.body.id);
  });
});
