import { createTableInput } from '@reprise/functions/table';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOfType, type SynthesizedReprise, synthReprise } from './synth-reprise';

let reprise: SynthesizedReprise;
let data: Template;
let auth: Template;
let web: Template;
let site: Template;

beforeAll(() => {
  reprise = synthReprise();
  data = reprise.template(reprise.stacks.data);
  auth = reprise.template(reprise.stacks.auth);
  web = reprise.template(reprise.stacks.web);
  site = reprise.template(reprise.stacks.site);
}, 120_000);

describe('data stack', () => {
  it('builds the table from the shared definition: string keys, three ALL-projected GSIs', () => {
    const expected = createTableInput('reprise-test-table');
    const [[, table]] = resourcesOfType(data, 'AWS::DynamoDB::Table') as [[string, Record<string, unknown>]];
    expect(table.TableName).toBe('reprise-test-table');
    expect(table.KeySchema).toEqual(expected.KeySchema);
    expect(table.AttributeDefinitions).toEqual(expect.arrayContaining(expected.AttributeDefinitions));
    expect(table.AttributeDefinitions).toHaveLength(8);
    expect(table.GlobalSecondaryIndexes).toEqual(expected.GlobalSecondaryIndexes);
  });

  it('expires items by expires_at, bills on demand, recovers to a point in time and is protected', () => {
    data.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
      DeletionPolicy: 'Retain',
    });
  });
});

describe('payload bucket', () => {
  it('keeps large execution fields private, encrypted, TLS-only and retained', () => {
    data.hasResource('AWS::S3::Bucket', {
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: Match.anyValue(),
      }),
      DeletionPolicy: 'Retain',
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      }),
    });
  });
});

describe('auth stack', () => {
  it('keeps the tenant attribute immutable and the pool closed to self sign-up', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      Schema: Match.arrayWith([
        Match.objectLike({ Name: 'tenant', Mutable: false, AttributeDataType: 'String' }),
      ]),
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    });
    auth.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'admin' });
    auth.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'reprise-test-auth' });
  });

  it('gives the SPA a public authorization-code client', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: Match.arrayWith(['openid']),
    });
    // Stage test is not dev: only the CloudFront origin, never localhost.
    const [[, client]] = resourcesOfType(auth, 'AWS::Cognito::UserPoolClient') as [
      [string, { CallbackURLs: unknown[] }],
    ];
    expect(client.CallbackURLs).toHaveLength(1);
    expect(JSON.stringify(client.CallbackURLs)).toContain('/login/callback');
  });
});

describe('web and site stacks', () => {
  it('keeps the site bucket private and readable only by CloudFront through OAC', () => {
    web.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: {
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      },
    });
    web.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
    web.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
  });

  it('serves HTTPS only and falls back to the SPA shell on 403 and 404', () => {
    const [[, dist]] = resourcesOfType(web, 'AWS::CloudFront::Distribution') as [
      [string, { DistributionConfig: Record<string, unknown> }],
    ];
    const config = dist.DistributionConfig as {
      DefaultCacheBehavior: { ViewerProtocolPolicy: string };
      CacheBehaviors: { PathPattern: string; ViewerProtocolPolicy: string }[];
      CustomErrorResponses: unknown[];
      Origins: { OriginAccessControlId?: unknown }[];
    };
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.CacheBehaviors.every((b) => b.ViewerProtocolPolicy === 'redirect-to-https')).toBe(true);
    expect(config.Origins[0]!.OriginAccessControlId).toBeDefined();
    expect(config.CustomErrorResponses).toEqual(
      [403, 404].map((code) => ({
        ErrorCode: code,
        ResponseCode: 200,
        ResponsePagePath: '/index.html',
        ErrorCachingMinTTL: 0,
      })),
    );
  });

  it('deploys config.json next to the SPA and invalidates it', () => {
    site.hasResourceProperties('Custom::CDKBucketDeployment', {
      DistributionPaths: ['/index.html', '/config.json'],
      Prune: false,
    });
    const [[, deployment]] = resourcesOfType(site, 'Custom::CDKBucketDeployment') as [
      [string, { SourceObjectKeys: unknown[] }],
    ];
    // config.json alone when web/dist has not been built, else the build plus config.json.
    expect(deployment.SourceObjectKeys).toHaveLength(reprise.stacks.site.includesBuild ? 2 : 1);
  });

  it('passes the AWS Solutions checks with every finding acknowledged', () => {
    expect(reprise.nagFailure).toBeUndefined();
  });
});
