import { existsSync } from 'node:fs';
import { Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { acknowledgeWildcards } from './nag';
import { repoPath } from './paths';
import { siteBucketName } from './web-stack';

/** The runtime configuration the SPA fetches from /config.json (shape read by web/src/config.ts). */
export interface SiteConfig {
  readonly apiUrl: string;
  readonly cognito: {
    /** Hosted UI base URL, https://<prefix>.auth.<region>.amazoncognito.com */
    readonly domain: string;
    readonly clientId: string;
    /** The API verifies id tokens: they carry custom:tenant and aud = the client id. */
    readonly tokenUse: 'id';
    readonly scopes: string;
  };
  readonly region: string;
  readonly userPoolId: string;
  readonly stage: string;
}

export interface SiteStackProps extends StackProps {
  readonly stage: string;
  readonly distribution: IDistribution;
  readonly config: SiteConfig;
  /** The SPA build; when it has not been built, only config.json is deployed. */
  readonly distDir?: string;
}

/**
 * Site content, deployed after the API and Cognito exist because config.json names them. Kept
 * apart from WebStack so that the distribution URL can feed the Cognito callback URLs without a
 * dependency cycle.
 */
export class SiteStack extends Stack {
  readonly deployment: BucketDeployment;
  readonly includesBuild: boolean;

  constructor(scope: Construct, id: string, props: SiteStackProps) {
    super(scope, id, props);
    const dist = props.distDir ?? repoPath('web/dist');
    this.includesBuild = existsSync(`${dist}/index.html`);
    const config = Source.jsonData('config.json', props.config);
    this.deployment = new BucketDeployment(this, 'Content', {
      sources: this.includesBuild ? [Source.asset(dist), config] : [config],
      destinationBucket: Bucket.fromBucketName(this, 'SiteBucket', siteBucketName(props.stage)),
      distribution: props.distribution,
      distributionPaths: ['/index.html', '/config.json'],
      // Keep the previous build's hashed chunks: open tabs still load them after a deploy.
      prune: false,
      memoryLimit: 512,
    });

    // The provider function is CDK's own; only its grants into our bucket are ours to judge.
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The CDK BucketDeployment provider logs through the AWS managed basic execution policy.',
      },
      {
        id: 'AwsSolutions-L1',
        reason: 'The BucketDeployment provider runtime is pinned by aws-cdk-lib, not by this app.',
      },
    );
    const copy = 'The deployment copies objects of any key from the CDK asset bucket into the site bucket.';
    acknowledgeWildcards(this, [
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        finding: `Action::${action}`,
        reason: `${copy} ${action} is CDK's grantReadWrite/grantRead action group for that copy.`,
      })),
      {
        finding: 'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
        reason: `${copy} The asset object key is only known at deploy time.`,
      },
      {
        finding: `Resource::arn:<AWS::Partition>:s3:::reprise-${props.stage}-site-<AWS::AccountId>-<AWS::Region>/*`,
        reason: `${copy} The SPA build's file names are content hashes.`,
      },
      {
        finding: 'Resource::*',
        reason: 'cloudfront:CreateInvalidation supports no resource-level permissions.',
      },
    ]);
  }
}
