/**
 * Configuration is read once, typed, and fails fast naming the missing variable. Nothing else in
 * the functions package reads process.env; the agent server's config uses these helpers too.
 */
export class ConfigError extends Error {}

type Source = Record<string, string | undefined>;

export function required(source: Source, name: string): string {
  const value = source[name];
  if (value === undefined || value === '')
    throw new ConfigError(`Missing required environment variable ${name}`);
  return value;
}

export function optional(source: Source, name: string, fallback: string): string {
  const value = source[name];
  return value === undefined || value === '' ? fallback : value;
}

export function integer(
  source: Source,
  name: string,
  fallback: number,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = source[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = min > Number.MIN_SAFE_INTEGER || max < Number.MAX_SAFE_INTEGER ? ` in ${min}..${max}` : '';
    throw new ConfigError(`Environment variable ${name} must be an integer${range}, got "${raw}"`);
  }
  return value;
}

export interface AuthConfig {
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: string;
}

export interface CoreConfig {
  readonly tableName: string;
  readonly stage: string;
  readonly version: string;
  readonly auth: AuthConfig;
  /** Local only: DynamoDB Local's URL. Unset in AWS. */
  readonly dynamoEndpoint: string | undefined;
  readonly region: string;
}

export function readCoreConfig(source: Source = process.env): CoreConfig {
  return {
    tableName: required(source, 'TABLE_NAME'),
    stage: optional(source, 'STAGE', 'dev'),
    version: optional(source, 'REPRISE_VERSION', '0.1.0'),
    auth: {
      jwksUrl: required(source, 'JWKS_URL'),
      issuer: required(source, 'JWT_ISSUER'),
      audience: required(source, 'JWT_AUDIENCE'),
    },
    dynamoEndpoint: source.DYNAMODB_ENDPOINT || undefined,
    region: optional(source, 'AWS_REGION', 'us-east-1'),
  };
}
