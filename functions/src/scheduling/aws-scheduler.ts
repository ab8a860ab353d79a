import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { required } from '../lib/env';
import { toAwsCronExpression } from './aws-cron';
import type { ScheduledJob, SchedulerPort } from './scheduler-port';

export interface AwsSchedulerConfig {
  /** The stage's schedule group (created by the CDK stack). */
  readonly groupName: string;
  /** The role EventBridge Scheduler assumes to invoke the target. */
  readonly roleArn: string;
  /** The `scheduled` Lambda. */
  readonly targetArn: string;
}

export function readAwsSchedulerConfig(source: Record<string, string | undefined>): AwsSchedulerConfig {
  return {
    groupName: required(source, 'SCHEDULE_GROUP'),
    roleArn: required(source, 'SCHEDULER_ROLE_ARN'),
    targetArn: required(source, 'SCHEDULED_FUNCTION_ARN'),
  };
}

/**
 * Retries are safe (the handler claims each scheduled minute once), so retry transient invoke
 * failures; but a run more than 15 minutes late is dropped rather than surprising anyone.
 */
export const RETRY_POLICY = { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 900 };

/** Names allow [0-9a-zA-Z-_.] and 64 characters; the ULID alone is unique, the tenant helps ops. */
export const awsScheduleName = (s: Pick<ScheduledJob, 'tenant' | 'id'>): string =>
  `${s.tenant.replace(/[^0-9a-zA-Z_.-]/g, '_').slice(0, 36)}.${s.id}`;

/** One EventBridge schedule per Reprise schedule. */
export class AwsScheduler implements SchedulerPort {
  constructor(
    private readonly client: SchedulerClient,
    private readonly config: AwsSchedulerConfig,
  ) {}

  async upsert(schedule: ScheduledJob): Promise<void> {
    const input = this.request(schedule);
    try {
      await this.client.send(new CreateScheduleCommand(input));
    } catch (e) {
      if (!(e instanceof ConflictException)) throw e;
      try {
        await this.client.send(new UpdateScheduleCommand(input));
      } catch (err) {
        // Deleted between our two calls (a concurrent DELETE): create it again.
        if (!(err instanceof ResourceNotFoundException)) throw err;
        await this.client.send(new CreateScheduleCommand(input));
      }
    }
  }

  async remove(schedule: Pick<ScheduledJob, 'tenant' | 'id'>): Promise<void> {
    try {
      await this.client.send(
        new DeleteScheduleCommand({ Name: awsScheduleName(schedule), GroupName: this.config.groupName }),
      );
    } catch (e) {
      if (!(e instanceof ResourceNotFoundException)) throw e;
    }
  }

  /** Create and Update take the same full definition (Update replaces every field). */
  private request(s: ScheduledJob): CreateScheduleCommandInput {
    return {
      Name: awsScheduleName(s),
      GroupName: this.config.groupName,
      Description: `Reprise schedule ${s.id} on agent ${s.agent}`,
      ScheduleExpression: toAwsCronExpression(s.cron),
      ScheduleExpressionTimezone: s.timezone,
      State: s.enabled ? 'ENABLED' : 'DISABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: this.config.targetArn,
        RoleArn: this.config.roleArn,
        // The scheduled time is substituted per invocation; retries carry the same one, which is
        // what lets the handler claim each scheduled minute exactly once.
        Input: JSON.stringify({
          tenant: s.tenant,
          schedule_id: s.id,
          scheduled_at: '<aws.scheduler.scheduled-time>',
        }),
        RetryPolicy: RETRY_POLICY,
      },
    };
  }
}
