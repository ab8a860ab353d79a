import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { AgentsStack } from './agents-stack';
import { payloadBucketName } from './data-stack';
import { fleetEnvironment } from './fleet-access';
import { RepriseFunction } from './reprise-function';

/** Handler entry files (repository-relative); each exports `handler`. */
export const ENTRIES = {
  api: 'functions/src/api/handler.ts',
  events: 'functions/src/api/stream-handler.ts',
  runner: 'functions/src/runner/handler.ts',
  scheduled: 'functions/src/scheduled/handler.ts',
  sweeper: 'functions/src/sweeper/handler.ts',
  fleet: 'functions/src/fleet/handler.ts',
  taskEvents: 'functions/src/fleet/task-events-handler.ts',
  deadLetter: 'functions/src/dead-letter/handler.ts',
} as const;

/**
 * Reserved concurrency of the long-running functions: each run holds a runner for up to 15
 * minutes, so without a cap a burst of runs could take the whole account pool (1,000 by default)
 * and throttle the API for every tenant. Excess runs wait in Lambda's async queue (retried up to
 * the event's max age), not in the API. The account needs this much unreserved headroom (+100).
 */
export const CONCURRENCY = { runner: 200, fleet: 20, deadLetter: 2 } as const;

export interface ApiFunctionsProps {
  readonly stage: string;
  readonly table: ITable;
  readonly agents: AgentsStack;
  /** JWKS_URL, JWT_ISSUER, JWT_AUDIENCE. */
  readonly jwt: Record<string, string>;
  readonly siteUrl: string;
  /** Override entry files (repository-relative); defaults to ENTRIES. */
  readonly entries?: Partial<Record<keyof typeof ENTRIES, string>>;
}

/** The seven Lambda functions and their configuration; permissions are granted by the stack. */
export class ApiFunctions extends Construct {
  readonly api: RepriseFunction;
  readonly events: RepriseFunction;
  readonly runner: RepriseFunction;
  readonly scheduled: RepriseFunction;
  readonly sweeper: RepriseFunction;
  readonly fleet: RepriseFunction;
  readonly taskEvents: RepriseFunction;
  readonly deadLetter: RepriseFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionsProps) {
    super(scope, id);
    const { stage, agents } = props;
    const { vpc } = agents.network;
    const entry = { ...ENTRIES, ...props.entries };

    // The one function with the AWS control plane (ECS, EFS, IAM, Secrets Manager): the others
    // reach agents through it (functions/src/fleet/remote.ts). Starting waits for RUNNING and a
    // healthy /health (1–3 minutes), so it outlives API Gateway's 29 s and is invoked async then.
    this.fleet = new RepriseFunction(this, 'Fleet', {
      stage,
      name: 'fleet',
      entry: entry.fleet,
      description: 'Creates, starts, stops and locates agents (ECS tasks on EFS homes)',
      timeout: Duration.minutes(5),
      reservedConcurrentExecutions: CONCURRENCY.fleet,
      environment: { STAGE: stage, ...fleetEnvironment(agents, stage) },
      vpc,
      securityGroups: [agents.network.apiSecurityGroup],
    });

    // Every other handler builds the shared composition root (functions/src/aws/core-deps.ts).
    const base = {
      STAGE: stage,
      TABLE_NAME: props.table.tableName,
      FLEET_FUNCTION_NAME: this.fleet.fn.functionName,
      PAYLOAD_BUCKET: payloadBucketName(stage),
    };
    const http = { ...props.jwt, CORS_ORIGIN: props.siteUrl };

    // Runs are long: the runner streams one agent turn (timeout_seconds ≤ 840) plus bookkeeping.
    // It sits in the VPC because agent servers have private IPs only.
    this.runner = new RepriseFunction(this, 'Runner', {
      stage,
      name: 'runner',
      entry: entry.runner,
      description: 'Runs one execution against its agent server and records the events (async invoke)',
      timeout: Duration.minutes(15),
      memorySize: 1024,
      reservedConcurrentExecutions: CONCURRENCY.runner,
      environment: base,
      vpc,
      securityGroups: [agents.network.runnerSecurityGroup],
    });
    const runnerName = { RUNNER_FUNCTION_NAME: this.runner.fn.functionName };

    // API Gateway gives up after 29 s; `?wait=` is capped at 25 s so the function finishes first.
    this.api = new RepriseFunction(this, 'Api', {
      stage,
      name: 'api',
      entry: entry.api,
      description: 'The Reprise HTTP API (Hono app)',
      timeout: Duration.seconds(29),
      memorySize: 1024,
      environment: { ...base, ...http, ...runnerName },
      vpc,
      securityGroups: [agents.network.apiSecurityGroup],
    });

    // Streams SSE for up to the run's lifetime; it only reads events, so it stays out of the VPC.
    this.events = new RepriseFunction(this, 'Events', {
      stage,
      name: 'events',
      entry: entry.events,
      description: 'GET /api/executions/{id}/events as a streamed response',
      timeout: Duration.minutes(15),
      environment: { ...base, ...http },
    });

    this.scheduled = new RepriseFunction(this, 'Scheduled', {
      stage,
      name: 'scheduled',
      entry: entry.scheduled,
      description: 'Turns a due schedule into an execution and dispatches the runner',
      timeout: Duration.minutes(1),
      environment: { ...base, ...runnerName },
    });

    this.sweeper = new RepriseFunction(this, 'Sweeper', {
      stage,
      name: 'sweeper',
      entry: entry.sweeper,
      description: 'Fails runs whose runner died, stops idle agents, dispatches missed queues',
      timeout: Duration.minutes(5),
      environment: { ...base, ...runnerName },
    });

    // ECS reports each agent task's state changes; this records a healthy task on the agent item
    // and dispatches its queued runs, so no function waits for a Fargate start. It calls /health
    // on the task's private IP, hence the VPC.
    this.taskEvents = new RepriseFunction(this, 'TaskEvents', {
      stage,
      name: 'task-events',
      entry: entry.taskEvents,
      description: 'ECS Task State Change: marks agents healthy or failed and dispatches their queues',
      timeout: Duration.minutes(1),
      environment: { ...base, ...runnerName },
      vpc,
      securityGroups: [agents.network.apiSecurityGroup],
    });

    // Consumes the runner's on-failure destination: a run whose invoke failed every attempt ends
    // `failed` with the reason at once instead of waiting for the sweeper, and the turn a timed-out
    // runner left going is stopped on its agent server (private IP, hence the VPC).
    this.deadLetter = new RepriseFunction(this, 'DeadLetter', {
      stage,
      name: 'dead-letter',
      entry: entry.deadLetter,
      description: 'Ends the runs of failed runner invokes (runner dead-letter queue)',
      timeout: Duration.minutes(1),
      reservedConcurrentExecutions: CONCURRENCY.deadLetter,
      environment: base,
      vpc,
      securityGroups: [agents.network.apiSecurityGroup],
    });
  }

  all(): RepriseFunction[] {
    return [
      this.api,
      this.events,
      this.runner,
      this.scheduled,
      this.sweeper,
      this.fleet,
      this.taskEvents,
      this.deadLetter,
    ];
  }
}
