import { RemovalPolicy } from 'aws-cdk-lib';

/**
 * Every physical name carries the stage so several stages can share one account. `dev` is the
 * only stage whose stateful resources may be destroyed with the stack.
 */
export interface StageSettings {
  readonly stage: string;
}

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,15}$/;

export function assertStage(stage: string): string {
  if (!STAGE_PATTERN.test(stage)) throw new Error(`Stage "${stage}" must match ${STAGE_PATTERN}`);
  return stage;
}

export const resourceName = (stage: string, name: string): string => `reprise-${stage}-${name}`;

export const isEphemeral = (stage: string): boolean => stage === 'dev';

/** Tables, file systems and pools hold tenant data: keep them when a non-dev stack goes away. */
export const statefulRemoval = (stage: string): RemovalPolicy =>
  isEphemeral(stage) ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
