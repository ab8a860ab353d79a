import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import {
  createRepriseApp,
  type RepriseAppOptions,
  type RepriseStacks,
} from '../../infra/aws/src/reprise-app';

// The same feature flags the CLI passes from cdk.json.
const CDK_JSON_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;
const OPTIONS: RepriseAppOptions = {
  stage: 'test',
  domainPrefix: 'reprise-test-auth',
};

export interface SynthesizedReprise {
  readonly stacks: RepriseStacks;
  /** The validation error synth raised, if cdk-nag found anything unacknowledged. */
  readonly nagFailure: string | undefined;
  template(stack: Stack): Template;
}

/**
 * Builds and synthesizes the whole app once (≈10 s: esbuild bundles every handler), with the AWS
 * Solutions checks registered exactly as bin/app.ts registers them. Stage `test` is a non-dev
 * stage, so stateful resources must be retained.
 */
export function synthReprise(): SynthesizedReprise {
  let nagFailure: string | undefined;
  let built = build(true);
  try {
    built.app.synth();
  } catch (error) {
    nagFailure = error instanceof Error ? error.message : String(error);
    // Only on failure: a second app without the checks, so the other assertions still report.
    built = build(false);
  }
  const templates = new Map<Stack, Template>();
  return {
    stacks: built.stacks,
    nagFailure,
    template(stack) {
      const cached = templates.get(stack) ?? Template.fromStack(stack);
      templates.set(stack, cached);
      return cached;
    },
  };
}

function build(withChecks: boolean): { app: App; stacks: RepriseStacks } {
  const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'reprise-cdk-')), context: CDK_JSON_CONTEXT });
  const stacks = createRepriseApp(app, OPTIONS);
  if (withChecks) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stacks };
}

/** Every `Resources` entry of one type, as [logicalId, properties]. */
export function resourcesOfType(template: Template, type: string): [string, Record<string, unknown>][] {
  return Object.entries(template.findResources(type)).map(([id, r]) => [
    id,
    (r.Properties ?? {}) as Record<string, unknown>,
  ]);
}
