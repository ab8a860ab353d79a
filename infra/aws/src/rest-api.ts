import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseTransferMode,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { resourceName } from './naming';

export interface RepriseRestApiProps {
  readonly stage: string;
  readonly api: IFunction;
  readonly events: IFunction;
}

/**
 * A regional REST API. Everything under /api goes to the api function; the SSE route goes to the
 * events function with response streaming, so events reach the browser as they are written
 * instead of after the 29-second buffered limit. The explicit resources around the events route
 * make routing independent of how API Gateway ranks greedy paths against siblings.
 */
export class RepriseRestApi extends Construct {
  readonly restApi: RestApi;

  constructor(scope: Construct, id: string, props: RepriseRestApiProps) {
    super(scope, id);
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: `/reprise/${props.stage}/api-access`,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: resourceName(props.stage, 'api'),
      endpointTypes: [EndpointType.REGIONAL],
      // Execution logging needs the account-wide API Gateway CloudWatch role, which one stack must
      // not own for every API in the region; access logs below cover each request.
      cloudWatchRole: false,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: MethodLoggingLevel.OFF,
        throttlingRateLimit: 100,
        throttlingBurstLimit: 200,
      },
    });

    const api = new LambdaIntegration(props.api);
    const events = new LambdaIntegration(props.events, {
      responseTransferMode: ResponseTransferMode.STREAM,
      // Streamed responses may stay open up to 15 minutes — as long as the longest run.
      timeout: Duration.minutes(15),
    });

    const root = this.restApi.root.addResource('api');
    root.addProxy({ defaultIntegration: api, anyMethod: true });
    const executions = root.addResource('executions');
    executions.addMethod('ANY', api);
    const execution = executions.addResource('{id}');
    execution.addMethod('ANY', api);
    execution.addProxy({ defaultIntegration: api, anyMethod: true });
    const stream = execution.addResource('events');
    stream.addMethod('GET', events);
    // Browsers preflight the SSE request (it carries Authorization); the Hono app answers CORS.
    stream.addMethod('OPTIONS', api);
  }

  get url(): string {
    return this.restApi.url;
  }
}
