import { type Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ISecurityGroup, IVpc } from 'aws-cdk-lib/aws-ec2';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { resourceName } from './naming';
import { repoPath } from './paths';

export interface RepriseFunctionProps {
  readonly stage: string;
  /** Short name: becomes reprise-<stage>-<name>. */
  readonly name: string;
  /** Entry file relative to the repository root; it must export `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly memorySize?: number;
  readonly environment?: Record<string, string>;
  readonly vpc?: IVpc;
  readonly securityGroups?: ISecurityGroup[];
  /** Caps (and reserves) concurrency so a burst here cannot starve the API of the account's pool. */
  readonly reservedConcurrentExecutions?: number;
}

// esbuild's ESM output has no `require`; a few CommonJS dependencies still call it.
const REQUIRE_BANNER =
  "import { createRequire as __reprise_createRequire } from 'node:module';const require = __reprise_createRequire(import.meta.url);";

/**
 * A Node 22 arm64 function bundled locally by esbuild (no Docker), logging JSON to its own log
 * group, with an explicit role: it starts with only the right to write that log group, and each
 * stack grants exactly the calls the function makes.
 */
export class RepriseFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: RepriseFunctionProps) {
    super(scope, id);
    const functionName = resourceName(props.stage, props.name);
    const logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/lambda/${functionName}`,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new Role(this, 'Role', {
      roleName: functionName,
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runtime role of ${functionName}`,
    });
    logGroup.grantWrite(this.role);
    if (props.vpc) {
      // Lambda's VPC attachment manages ENIs; these EC2 actions support no resource scoping.
      this.role.addToPolicy(
        new PolicyStatement({
          sid: 'ManageVpcNetworkInterfaces',
          actions: [
            'ec2:CreateNetworkInterface',
            'ec2:DescribeNetworkInterfaces',
            'ec2:DescribeSubnets',
            'ec2:DeleteNetworkInterface',
            'ec2:AssignPrivateIpAddresses',
            'ec2:UnassignPrivateIpAddresses',
          ],
          resources: ['*'],
        }),
      );
    }

    this.fn = new NodejsFunction(this, 'Function', {
      functionName,
      description: props.description,
      entry: repoPath(props.entry),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      role: this.role,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      vpc: props.vpc,
      vpcSubnets: props.vpc ? { subnets: props.vpc.privateSubnets } : undefined,
      securityGroups: props.securityGroups,
      environment: {
        STAGE: props.stage,
        NODE_OPTIONS: '--enable-source-maps',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...props.environment,
      },
      depsLockFilePath: repoPath('package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        logLevel: LogLevel.WARNING,
        sourceMap: true,
        mainFields: ['module', 'main'],
        banner: REQUIRE_BANNER,
        // Bundle the pinned SDK clients instead of the runtime's copy, so Lambda runs the
        // versions the tests ran.
        externalModules: [],
      },
    });
  }
}
