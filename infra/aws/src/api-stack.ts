import { Aws, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { Construct } from 'constructs';
import type { AgentsStack } from './agents-stack';
import { ApiFunctions, type ApiFunctionsProps } from './api-functions';
import { suppressApiFindings } from './api-suppressions';
import { payloadBucketName } from './data-stack';
import { fleetManagement } from './fleet-access';
import { resourceName } from './naming';
import { RepriseRestApi } from './rest-api';
import { RunnerDeadLetters } from './runner-dead-letters';
import { ScheduleTargets } from './schedules';
import { tableItemAccess } from './table-access';

export interface ApiStackProps extends StackProps {
  readonly stage: string;
  readonly table: ITable;
  readonly agents: AgentsStack;
  readonly jwt: Record<string, string>;
  readonly siteUrl: string;
  readonly entries?: ApiFunctionsProps['entries'];
}

export class ApiStack extends Stack {
  readonly functions: ApiFunctions;
  readonly restApi: RepriseRestApi;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { stage, table, agents } = props;
    const fns = new ApiFunctions(this, 'Functions', props);
    this.functions = fns;
    // The unqualified function only: grantInvoke would add <arn>:* (every version and alias).
    const invokeRunner = new PolicyStatement({
      sid: 'DispatchRunner',
      actions: ['lambda:InvokeFunction'],
      resources: [fns.runner.fn.functionArn],
    });

    const invokeFleet = new PolicyStatement({
      sid: 'AskTheFleet',
      actions: ['lambda:InvokeFunction'],
      resources: [fns.fleet.fn.functionArn],
    });

    // Large execution fields live in the payload bucket; objects only, never listing.
    const payloads = `arn:${Aws.PARTITION}:s3:::${payloadBucketName(stage)}/*`;
    const readPayloads = new PolicyStatement({
      sid: 'ReadPayloads',
      actions: ['s3:GetObject'],
      resources: [payloads],
    });
    const writePayloads = new PolicyStatement({
      sid: 'ReadWritePayloads',
      actions: ['s3:GetObject', 's3:PutObject'],
      resources: [payloads],
    });
    fns.events.role.addToPolicy(readPayloads);
    for (const fn of [fns.api, fns.runner, fns.scheduled, fns.sweeper, fns.taskEvents])
      fn.role.addToPolicy(writePayloads);

    // Least privilege, one function at a time: each role holds only the calls that function makes.
    // Only the fleet function may touch ECS, EFS, IAM and the agent tokens.
    for (const statement of fleetManagement(this, agents, stage)) fns.fleet.role.addToPolicy(statement);

    fns.api.role.addToPolicy(tableItemAccess(table, 'read-write'));
    fns.api.role.addToPolicy(invokeFleet);
    fns.api.role.addToPolicy(invokeRunner);

    fns.events.role.addToPolicy(tableItemAccess(table, 'read'));

    fns.runner.role.addToPolicy(tableItemAccess(table, 'read-write'));
    fns.runner.role.addToPolicy(invokeFleet);
    // Retries are safe: a conditional `runner_at` write hands a run to one runner only, so a retry
    // can never play a turn twice. What fails every attempt lands in the dead-letter queue, whose
    // consumer ends the run with the reason and stops its turn on the agent.
    const failed = new RunnerDeadLetters(this, 'RunnerDeadLetters', { stage, consumer: fns.deadLetter.fn });
    fns.runner.fn.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(1),
      onFailure: new SqsDestination(failed.queue),
    });
    fns.deadLetter.role.addToPolicy(tableItemAccess(table, 'read-write'));
    fns.deadLetter.role.addToPolicy(invokeFleet);

    const schedules = new ScheduleTargets(this, 'Schedules', { stage, scheduled: fns.scheduled.fn });
    for (const statement of schedules.managementStatements(this)) fns.api.role.addToPolicy(statement);
    // Both API entries build the same app (functions/src/api/aws-app.ts), which reads these at
    // cold start; only the api function may call Scheduler.
    for (const [name, value] of Object.entries(schedules.environment(fns.scheduled.fn))) {
      fns.api.fn.addEnvironment(name, value);
      fns.events.fn.addEnvironment(name, value);
    }

    fns.scheduled.role.addToPolicy(tableItemAccess(table, 'read-write'));
    // Firing a schedule submits a task, which asks the fleet whether the agent is running.
    fns.scheduled.role.addToPolicy(invokeFleet);
    fns.scheduled.role.addToPolicy(invokeRunner);

    // The sweeper also stops idle agents (within a minute of their idle timeout) and dispatches
    // queued runs an event missed.
    fns.sweeper.role.addToPolicy(tableItemAccess(table, 'read-write'));
    fns.sweeper.role.addToPolicy(invokeFleet);
    fns.sweeper.role.addToPolicy(invokeRunner);
    new Rule(this, 'SweepStaleRuns', {
      ruleName: resourceName(stage, 'sweep-stale-runs'),
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(fns.sweeper.fn, { retryAttempts: 0 })],
    });

    fns.taskEvents.role.addToPolicy(tableItemAccess(table, 'read-write'));
    fns.taskEvents.role.addToPolicy(invokeFleet);
    fns.taskEvents.role.addToPolicy(invokeRunner);
    new Rule(this, 'AgentTaskStateChanges', {
      ruleName: resourceName(stage, 'agent-task-state'),
      eventPattern: {
        source: ['aws.ecs'],
        detailType: ['ECS Task State Change'],
        detail: { clusterArn: [agents.cluster.clusterArn], lastStatus: ['RUNNING', 'STOPPED'] },
      },
      targets: [new LambdaFunction(fns.taskEvents.fn, { retryAttempts: 2 })],
    });

    this.restApi = new RepriseRestApi(this, 'Http', { stage, api: fns.api.fn, events: fns.events.fn });
    new CfnOutput(this, 'ApiUrl', { value: this.restApi.url });

    suppressApiFindings(this, stage);
  }
}
