import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { resourceName } from './naming';

/**
 * The runner's on-failure destination: an encrypted queue of failed invokes, a consumer that ends
 * their runs, and an alarm as soon as one arrives (a failed invoke is always worth a look).
 */
export class RunnerDeadLetters extends Construct {
  readonly queue: Queue;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: { stage: string; consumer: IFunction }) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      queueName: resourceName(props.stage, 'runner-failures'),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      visibilityTimeout: Duration.minutes(6),
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself the dead-letter store (the runner's on-failure destination); a message its consumer cannot handle stays here for 14 days under the alarm.",
    });
    props.consumer.addEventSource(new SqsEventSource(this.queue, { batchSize: 10 }));
    this.alarm = new Alarm(this, 'Alarm', {
      alarmName: resourceName(props.stage, 'runner-failures'),
      alarmDescription: 'A runner invoke failed every attempt; its run was ended failed (lost)',
      metric: this.queue.metricNumberOfMessagesSent({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
