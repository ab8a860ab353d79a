import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
} from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import { isEphemeral, resourceName, statefulRemoval } from './naming';

export interface AuthStackProps extends StackProps {
  readonly stage: string;
  /** The SPA origin, e.g. https://d123.cloudfront.net — the OAuth callback and logout URL. */
  readonly siteUrl: string;
  /** Hosted-UI domain prefix; globally unique per region, so overridable by context. */
  readonly domainPrefix: string;
}

/** Role mapping the API applies: member of this group → admin, otherwise operator. */
export const ADMIN_GROUP = 'admin';
export const TENANT_ATTRIBUTE = 'tenant';

export class AuthStack extends Stack {
  readonly userPool: UserPool;
  readonly spaClient: UserPoolClient;
  readonly hostedUiUrl: string;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);
    const { stage } = props;
    this.userPool = new UserPool(this, 'Users', {
      userPoolName: resourceName(stage, 'users'),
      // Tenants are provisioned by an operator (admin-create-user); nobody may pick a tenant.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      // Immutable: a user can never move themselves into another tenant.
      customAttributes: {
        [TENANT_ATTRIBUTE]: new StringAttribute({ minLen: 1, maxLen: 64, mutable: false }),
      },
      passwordPolicy: {
        minLength: 12,
        requireDigits: true,
        requireLowercase: true,
        requireUppercase: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      featurePlan: FeaturePlan.ESSENTIALS,
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: !isEphemeral(stage),
      removalPolicy: statefulRemoval(stage),
    });
    this.userPool.addGroup('AdminGroup', {
      groupName: ADMIN_GROUP,
      description: 'Tenant administrators; everyone else in the pool is an operator.',
    });
    const domain = this.userPool.addDomain('HostedUi', {
      cognitoDomain: { domainPrefix: props.domainPrefix },
    });
    this.hostedUiUrl = domain.baseUrl();

    const origins = [props.siteUrl, ...(isEphemeral(stage) ? ['http://localhost:8787'] : [])];
    // A public client: no secret (a browser cannot keep one). Cognito enforces PKCE for the
    // authorization-code grant whenever the SPA sends a code_challenge, which it always does.
    this.spaClient = this.userPool.addClient('Spa', {
      userPoolClientName: resourceName(stage, 'spa'),
      generateSecret: false,
      authFlows: { userSrp: true },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        // The SPA's routes (web/src/auth/cognito-provider.ts); a local SPA may sign in to dev only.
        callbackUrls: origins.map((origin) => `${origin}/login/callback`),
        logoutUrls: origins.map((origin) => `${origin}/login`),
      },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'SpaClientId', { value: this.spaClient.userPoolClientId });
    new CfnOutput(this, 'HostedUiUrl', { value: this.hostedUiUrl });

    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Plus plan (threat protection) is a per-MAU cost decision per deployment; MFA is required and sign-up is closed instead.',
    });
  }

  /** What the API needs to verify Cognito JWTs with jose. */
  jwtSettings(): Record<'JWKS_URL' | 'JWT_ISSUER' | 'JWT_AUDIENCE', string> {
    const issuer = `https://cognito-idp.${this.region}.amazonaws.com/${this.userPool.userPoolId}`;
    return {
      JWKS_URL: `${issuer}/.well-known/jwks.json`,
      JWT_ISSUER: issuer,
      JWT_AUDIENCE: this.spaClient.userPoolClientId,
    };
  }
}
