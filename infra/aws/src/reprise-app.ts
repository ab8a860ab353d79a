import { type App, Stack } from 'aws-cdk-lib';
import type { AgentImageProps } from './agent-image';
import { AgentsStack } from './agents-stack';
import type { ApiFunctionsProps } from './api-functions';
import { ApiStack } from './api-stack';
import { AuthStack } from './auth-stack';
import { DataStack } from './data-stack';
import { assertStage, resourceName } from './naming';
import { SiteStack } from './site-stack';
import { WebStack } from './web-stack';

export interface RepriseAppOptions {
  readonly stage: string;
  /** Cognito hosted-UI prefix; must be unique in the region. Default reprise-<stage>. */
  readonly domainPrefix?: string;
  readonly entries?: ApiFunctionsProps['entries'];
  readonly image?: AgentImageProps;
  readonly distDir?: string;
}

export interface RepriseStacks {
  readonly web: WebStack;
  readonly auth: AuthStack;
  readonly data: DataStack;
  readonly agents: AgentsStack;
  readonly api: ApiStack;
  readonly site: SiteStack;
}

/**
 * All stacks of one stage. They are environment-agnostic (region and account resolved at deploy
 * time), so `cdk synth` needs neither credentials nor availability-zone lookups.
 * Order: web hosting → auth (needs the site URL) → data, agents → api → site content.
 */
export function createRepriseApp(app: App, options: RepriseAppOptions): RepriseStacks {
  const stage = assertStage(options.stage);
  const id = (name: string) => resourceName(stage, name);
  const tags = { 'reprise:stage': stage };

  const web = new WebStack(app, id('web'), { stage, tags });
  const auth = new AuthStack(app, id('auth'), {
    stage,
    tags,
    siteUrl: web.siteUrl,
    domainPrefix: options.domainPrefix ?? id('auth'),
  });
  const data = new DataStack(app, id('data'), { stage, tags });
  const agents = new AgentsStack(app, id('agents'), { stage, tags, image: options.image });
  const api = new ApiStack(app, id('api'), {
    stage,
    tags,
    table: data.table,
    agents,
    jwt: auth.jwtSettings(),
    siteUrl: web.siteUrl,
    entries: options.entries,
  });
  const site = new SiteStack(app, id('site'), {
    stage,
    tags,
    distribution: web.distribution,
    distDir: options.distDir,
    config: {
      apiUrl: api.restApi.url,
      cognito: {
        domain: auth.hostedUiUrl,
        clientId: auth.spaClient.userPoolClientId,
        tokenUse: 'id',
        scopes: 'openid email profile',
      },
      region: Stack.of(api).region,
      userPoolId: auth.userPool.userPoolId,
      stage,
    },
  });
  // The bucket is addressed by name, so the ordering is not implied by a reference.
  site.addStackDependency(web);
  return { web, auth, data, agents, api, site };
}
