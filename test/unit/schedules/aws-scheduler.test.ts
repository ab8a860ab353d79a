import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import {
  AwsScheduler,
  awsScheduleName,
  readAwsSchedulerConfig,
} from '@reprise/functions/scheduling/aws-scheduler';
import type { ScheduledJob } from '@reprise/functions/scheduling/scheduler-port';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';

const config = {
  groupName: 'reprise-dev-schedules',
  roleArn: 'arn:aws:iam::123456789012:role/reprise-dev-scheduler-invoke',
  targetArn: 'arn:aws:lambda:eu-west-1:123456789012:function:reprise-dev-scheduled',
};
const job: ScheduledJob = {
  tenant: 'acme',
  id: '01JD7Y3ZQ8X9V4N2K6M5T1R0AB',
  agent: 'demo',
  cron: '0 9 * * MON-FRI',
  timezone: 'Europe/Berlin',
  enabled: true,
};
const meta = { $metadata: {} };
const err = (message: string) => ({ message, Message: message, ...meta });
const sdk = mockClient(SchedulerClient);
const scheduler = () => new AwsScheduler(new SchedulerClient({ region: 'eu-west-1' }), config);

beforeEach(() => sdk.reset());

const expectedDefinition = (state: 'ENABLED' | 'DISABLED') => ({
  Name: 'acme.01JD7Y3ZQ8X9V4N2K6M5T1R0AB',
  GroupName: 'reprise-dev-schedules',
  ScheduleExpression: 'cron(0 9 ? * MON-FRI *)',
  ScheduleExpressionTimezone: 'Europe/Berlin',
  State: state,
  FlexibleTimeWindow: { Mode: 'OFF' },
  Target: {
    Arn: config.targetArn,
    RoleArn: config.roleArn,
    RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 900 },
    Input: expect.any(String),
  },
});

describe('AwsScheduler', () => {
  it('creates one enabled schedule per Reprise schedule, targeting the scheduled function', async () => {
    sdk.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler().upsert(job);
    const calls = sdk.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    expect(input).toMatchObject(expectedDefinition('ENABLED'));
    // The scheduled time is substituted by EventBridge so retries land on the same slot.
    expect(JSON.parse(input?.Target?.Input ?? '')).toEqual({
      tenant: 'acme',
      schedule_id: job.id,
      scheduled_at: '<aws.scheduler.scheduled-time>',
    });
    expect(input?.Description).not.toContain('message');
    expect(sdk.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
  });

  it('updates the existing schedule when create reports a conflict', async () => {
    sdk.on(CreateScheduleCommand).rejects(new ConflictException(err('exists')));
    sdk.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler().upsert({ ...job, cron: '*/20 * * * *', timezone: 'UTC' });
    const update = sdk.commandCalls(UpdateScheduleCommand)[0]?.args[0].input;
    expect(update).toMatchObject({
      ...expectedDefinition('ENABLED'),
      ScheduleExpression: 'cron(0/20 * * * ? *)',
      ScheduleExpressionTimezone: 'UTC',
    });
  });

  it('disables and re-enables through State, keeping the schedule', async () => {
    sdk.on(CreateScheduleCommand).rejects(new ConflictException(err('exists')));
    sdk.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler().upsert({ ...job, enabled: false });
    await scheduler().upsert(job);
    const states = sdk.commandCalls(UpdateScheduleCommand).map((c) => c.args[0].input.State);
    expect(states).toEqual(['DISABLED', 'ENABLED']);
    expect(sdk.commandCalls(UpdateScheduleCommand)[0]?.args[0].input).toMatchObject(
      expectedDefinition('DISABLED'),
    );
    expect(sdk.commandCalls(DeleteScheduleCommand)).toHaveLength(0);
  });

  it('creates again when the schedule vanished between create and update', async () => {
    sdk
      .on(CreateScheduleCommand)
      .rejectsOnce(new ConflictException(err('exists')))
      .resolves({ ScheduleArn: 'arn:schedule' });
    sdk.on(UpdateScheduleCommand).rejects(new ResourceNotFoundException(err('gone')));
    await scheduler().upsert(job);
    expect(sdk.commandCalls(CreateScheduleCommand)).toHaveLength(2);
  });

  it('passes other errors through', async () => {
    sdk.on(CreateScheduleCommand).rejects(new ValidationException(err('bad')));
    await expect(scheduler().upsert(job)).rejects.toBeInstanceOf(ValidationException);
  });

  it('deletes by name in the group and tolerates a schedule that is already gone', async () => {
    sdk
      .on(DeleteScheduleCommand)
      .resolvesOnce({})
      .rejects(new ResourceNotFoundException(err('gone')));
    await scheduler().remove(job);
    await scheduler().remove(job);
    expect(sdk.commandCalls(DeleteScheduleCommand).map((c) => c.args[0].input)).toEqual([
      { Name: 'acme.01JD7Y3ZQ8X9V4N2K6M5T1R0AB', GroupName: 'reprise-dev-schedules' },
      { Name: 'acme.01JD7Y3ZQ8X9V4N2K6M5T1R0AB', GroupName: 'reprise-dev-schedules' },
    ]);
  });

  it('keeps names within the 64 allowed characters', () => {
    const name = awsScheduleName({ tenant: `a very/long tenant${'x'.repeat(80)}`, id: job.id });
    expect(name).toMatch(/^[0-9a-zA-Z_.-]{1,64}$/);
    expect(name.endsWith(job.id)).toBe(true);
  });

  it('reads its configuration from the environment, naming a missing variable', () => {
    expect(
      readAwsSchedulerConfig({
        SCHEDULE_GROUP: config.groupName,
        SCHEDULER_ROLE_ARN: config.roleArn,
        SCHEDULED_FUNCTION_ARN: config.targetArn,
      }),
    ).toEqual(config);
    expect(() => readAwsSchedulerConfig({ SCHEDULE_GROUP: 'g' })).toThrow(/SCHEDULER_ROLE_ARN/);
  });
});
