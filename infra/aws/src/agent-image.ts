import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { Construct } from 'constructs';
import { repoPath } from './paths';

export interface AgentImageProps {
  /** Build context; defaults to agent-image/. */
  readonly directory?: string;
}

/**
 * The agent server image. Its context is agent-image/, whose .dockerignore admits only the
 * esbuild bundle (dist/server.mjs) — bin/app.ts rebuilds that bundle before every synth so a
 * deploy can never ship stale code. At synth the asset is only staged; `cdk deploy` builds it.
 */
export class AgentImage extends Construct {
  readonly asset: DockerImageAsset;

  constructor(scope: Construct, id: string, props: AgentImageProps = {}) {
    super(scope, id);
    this.asset = new DockerImageAsset(this, 'Asset', {
      directory: props.directory ?? repoPath('agent-image'),
      // Graviton tasks: cheaper per vCPU, and the claude CLI ships a linux-arm64 build.
      platform: Platform.LINUX_ARM64,
    });
  }

  get imageUri(): string {
    return this.asset.imageUri;
  }
}
