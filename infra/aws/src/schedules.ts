import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { resourceName } from './naming';

/**
 * EventBridge Scheduler plumbing for Reprise schedules: the api creates one schedule per Reprise
 * schedule in this group, targeting the `scheduled` function through the invoke role.
 */
export class ScheduleTargets extends Construct {
  readonly groupName: string;
  readonly invokeRole: Role;

  constructor(scope: Construct, id: string, props: { stage: string; scheduled: IFunction }) {
    super(scope, id);
    this.groupName = resourceName(props.stage, 'schedules');
    new CfnScheduleGroup(this, 'Group', { name: this.groupName });
    this.invokeRole = new Role(this, 'InvokeRole', {
      roleName: resourceName(props.stage, 'scheduler-invoke'),
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: 'EventBridge Scheduler invokes the scheduled function with this role.',
    });
    this.invokeRole.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.scheduled.functionArn] }),
    );
  }

  environment(scheduled: IFunction): Record<string, string> {
    return {
      SCHEDULE_GROUP: this.groupName,
      SCHEDULER_ROLE_ARN: this.invokeRole.roleArn,
      SCHEDULED_FUNCTION_ARN: scheduled.functionArn,
    };
  }

  /** What the api needs to manage schedules in this group and hand them the invoke role. */
  managementStatements(stack: Stack): PolicyStatement[] {
    return [
      new PolicyStatement({
        sid: 'ManageRepriseSchedules',
        actions: [
          'scheduler:CreateSchedule',
          'scheduler:UpdateSchedule',
          'scheduler:DeleteSchedule',
          'scheduler:GetSchedule',
        ],
        resources: [
          stack.formatArn({
            service: 'scheduler',
            resource: 'schedule',
            resourceName: `${this.groupName}/*`,
          }),
        ],
      }),
      new PolicyStatement({
        sid: 'PassSchedulerRole',
        actions: ['iam:PassRole'],
        resources: [this.invokeRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    ];
  }
}
