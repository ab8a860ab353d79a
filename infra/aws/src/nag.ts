import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** One justified wildcard: the exact cdk-nag finding (e.g. `Resource::*`) and why it is needed. */
export interface WildcardJustification {
  readonly finding: string;
  readonly reason: string;
}

/**
 * cdk-nag 3 matches acknowledgements by exact finding id, so each wildcard is acknowledged on its
 * own with its own reason; a new wildcard added later fails synth until someone justifies it.
 */
export function acknowledgeWildcards(scope: IConstruct, justifications: WildcardJustification[]): void {
  Validations.of(scope).acknowledge(
    ...justifications.map(({ finding, reason }) => ({ id: `AwsSolutions-IAM5[${finding}]`, reason })),
  );
}

/** How cdk-nag renders a resource ARN with pseudo parameters, e.g. for secrets or ECS tasks. */
export const nagArn = (service: string, resource: string, region = '<AWS::Region>'): string =>
  `Resource::arn:<AWS::Partition>:${service}:${region}:<AWS::AccountId>:${resource}`;
