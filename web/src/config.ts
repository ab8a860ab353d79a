/**
 * The only module that reads `import.meta.env`. In AWS the bucket also carries `/config.json`
 * (API URL and Cognito ids, written at deploy time so one build serves every stage); locally the
 * file is absent and the SPA talks to its own origin and the dev identity provider.
 */
export type CognitoConfig = {
  domain: string;
  clientId: string;
  /** Which token the API's authorizer expects; the id token carries the tenant claims. */
  tokenUse: 'id' | 'access';
  scopes: string;
};

export type AppConfig = {
  apiUrl: string;
  auth: { kind: 'dev' } | ({ kind: 'cognito' } & CognitoConfig);
};

type RuntimeConfig = {
  apiUrl?: string;
  cognito?: { domain?: string; clientId?: string; tokenUse?: 'id' | 'access'; scopes?: string };
};

function fromBuild(): RuntimeConfig {
  const env = import.meta.env;
  const domain = env.VITE_COGNITO_DOMAIN as string | undefined;
  const clientId = env.VITE_COGNITO_CLIENT_ID as string | undefined;
  return {
    apiUrl: (env.VITE_API_URL as string | undefined) ?? '',
    ...(domain && clientId ? { cognito: { domain, clientId } } : {}),
  };
}

export function resolveConfig(build: RuntimeConfig, runtime: RuntimeConfig | null): AppConfig {
  const apiUrl = (runtime?.apiUrl ?? build.apiUrl ?? '').replace(/\/+$/, '');
  const cognito = runtime?.cognito ?? build.cognito;
  if (cognito?.domain && cognito.clientId) {
    return {
      apiUrl,
      auth: {
        kind: 'cognito',
        domain: cognito.domain.replace(/\/+$/, ''),
        clientId: cognito.clientId,
        tokenUse: cognito.tokenUse ?? 'id',
        scopes: cognito.scopes ?? 'openid email profile',
      },
    };
  }
  return { apiUrl, auth: { kind: 'dev' } };
}

async function fetchRuntimeConfig(): Promise<RuntimeConfig | null> {
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    // A single-page-app fallback may answer with index.html: only JSON counts.
    if (!res.ok || !res.headers.get('content-type')?.includes('json')) return null;
    return (await res.json()) as RuntimeConfig;
  } catch {
    return null;
  }
}

export async function loadConfig(): Promise<AppConfig> {
  return resolveConfig(fromBuild(), await fetchRuntimeConfig());
}
