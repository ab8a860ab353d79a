import { Aws, CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  CachePolicy,
  Distribution,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { statefulRemoval } from './naming';

/**
 * Deterministic (account and region make it globally unique), so the site stack can address the
 * bucket by name instead of importing a generated one.
 */
export const siteBucketName = (stage: string): string =>
  `reprise-${stage}-site-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

export interface WebStackProps extends StackProps {
  readonly stage: string;
}

/**
 * Hosting for the SPA: a private bucket read only by CloudFront through origin access control.
 * It depends on nothing, so the auth stack can register the distribution's URL as the OAuth
 * callback before the site content (which needs the API URL and Cognito ids) is deployed.
 */
export class WebStack extends Stack {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly siteUrl: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    this.bucket = new Bucket(this, 'Site', {
      bucketName: siteBucketName(props.stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: statefulRemoval(props.stage),
    });
    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    this.distribution = new Distribution(this, 'Cdn', {
      comment: `Reprise ${props.stage} SPA`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
      },
      additionalBehaviors: {
        // The runtime config changes on every deploy of the API; never serve a stale one.
        '/config.json': {
          origin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: CachePolicy.CACHING_DISABLED,
        },
      },
      // Client-side routes (/agents/demo) are not objects: S3 answers 403 through OAC, so both
      // 403 and 404 fall back to the SPA shell.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
    });
    this.siteUrl = `https://${this.distribution.distributionDomainName}`;
    new CfnOutput(this, 'SiteUrl', { value: this.siteUrl });

    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The bucket only holds the public SPA build; CloudFront is its only reader (OAC) and deploys are audited by CloudFormation.',
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Tenants are worldwide; access is controlled by Cognito sign-in, not by geography.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution serves only static SPA files; the API it calls has its own throttling and auth.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason: 'Static, non-sensitive assets only; standard logs would need a log bucket with ACLs enabled.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'Uses the default *.cloudfront.net certificate (no custom domain), for which CloudFront fixes the TLS policy.',
      },
    );
  }
}
