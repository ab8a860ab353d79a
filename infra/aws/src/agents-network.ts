import { AGENT_PORT } from '@reprise/functions/agent-events';
import { RemovalPolicy } from 'aws-cdk-lib';
import {
  FlowLogDestination,
  GatewayVpcEndpointAwsService,
  Port,
  SecurityGroup,
  SubnetType,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { isEphemeral, resourceName } from './naming';

/**
 * Private subnets in two AZs (AZs resolved by CloudFormation, so the stack stays env-agnostic and
 * synthesizes offline). Egress goes through NAT because the agents must reach the Anthropic API on
 * the internet anyway; with NAT in place, interface endpoints for ECR, logs and Secrets Manager
 * would only add ~$15/month per endpoint without removing the internet path. The free gateway
 * endpoints keep DynamoDB and S3 (ECR layers, transcript archive) traffic off the NAT.
 */
export class AgentsNetwork extends Construct {
  readonly vpc: Vpc;
  /** Agent tasks: reachable on the agent port from the runner and api functions only. */
  readonly agentSecurityGroup: SecurityGroup;
  readonly runnerSecurityGroup: SecurityGroup;
  readonly apiSecurityGroup: SecurityGroup;
  readonly fileSystemSecurityGroup: SecurityGroup;

  constructor(scope: Construct, id: string, stage: string) {
    super(scope, id);
    const flowLogs = new LogGroup(this, 'FlowLogs', {
      logGroupName: `/reprise/${stage}/vpc-flow-logs`,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.vpc = new Vpc(this, 'Vpc', {
      vpcName: resourceName(stage, 'vpc'),
      maxAzs: 2,
      // One NAT keeps dev cheap; other stages get one per AZ so an AZ outage does not cut egress.
      natGateways: isEphemeral(stage) ? 1 : 2,
      subnetConfiguration: [
        { name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'private', subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 20 },
      ],
      gatewayEndpoints: {
        S3: { service: GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: GatewayVpcEndpointAwsService.DYNAMODB },
      },
      flowLogs: { all: { destination: FlowLogDestination.toCloudWatchLogs(flowLogs) } },
    });

    const group = (name: string, description: string) =>
      new SecurityGroup(this, name, {
        vpc: this.vpc,
        securityGroupName: resourceName(stage, name.toLowerCase()),
        description,
        allowAllOutbound: true,
      });
    this.agentSecurityGroup = group('Agents', 'Reprise agent tasks');
    this.runnerSecurityGroup = group('Runner', 'Reprise runner function');
    this.apiSecurityGroup = group('Api', 'Reprise api function');
    this.fileSystemSecurityGroup = group('Homes', 'Reprise agent home file system');

    for (const [peer, who] of [
      [this.runnerSecurityGroup, 'runner'],
      [this.apiSecurityGroup, 'api'],
    ] as const) {
      this.agentSecurityGroup.addIngressRule(peer, Port.tcp(AGENT_PORT), `${who} function to agent server`);
    }
    this.fileSystemSecurityGroup.addIngressRule(
      this.agentSecurityGroup,
      Port.tcp(2049),
      'agent tasks mount NFS',
    );
  }
}
