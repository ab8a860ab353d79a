import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { Construct } from 'constructs';
import { repoRoot } from './paths';

export interface AgentImageProps {
  /** Build context; defaults to the repository root. */
  readonly directory?: string;
  /** Dockerfile relative to the context. */
  readonly file?: string;
}

/**
 * The agent server image. The build context is the repository root because agent-image imports
 * `@reprise/functions` by package name and `npm ci` needs every workspace's package.json; the
 * excludes keep the context (and the asset hash) to what the image is built from.
 * At synth the asset is only staged; `cdk deploy` builds and pushes it.
 */
export class AgentImage extends Construct {
  readonly asset: DockerImageAsset;

  constructor(scope: Construct, id: string, props: AgentImageProps = {}) {
    super(scope, id);
    this.asset = new DockerImageAsset(this, 'Asset', {
      directory: props.directory ?? repoRoot,
      file: props.file ?? 'agent-image/Dockerfile',
      // Graviton tasks: cheaper per vCPU, and the claude CLI ships a linux-arm64 binary.
      platform: Platform.LINUX_ARM64,
      exclude: [
        '**/node_modules',
        '.git',
        '**/cdk.out',
        '**/dist',
        '.reprise',
        'test',
        'test-results',
        'web/*',
        '!web/package.json',
        'infra/*',
        '!infra/package.json',
        '**/*.md',
      ],
    });
  }

  get imageUri(): string {
    return this.asset.imageUri;
  }
}
