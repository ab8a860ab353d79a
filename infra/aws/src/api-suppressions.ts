import { Validations } from 'aws-cdk-lib';
import type { ApiStack } from './api-stack';
import { acknowledgeWildcards, nagArn, type WildcardJustification } from './nag';

/** Every AWS Solutions finding the api stack accepts, each with the reason it is accepted. */
export function suppressApiFindings(stack: ApiStack, stage: string): void {
  const fns = stack.functions;
  for (const fn of fns.all()) {
    Validations.of(fn.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node 22 is the platform runtime: the code and its tests target Node 20/22 (TOOLCHAIN.md), not the newest Lambda runtime.',
    });
  }

  const everywhere: WildcardJustification = {
    finding: 'Resource::*',
    reason:
      'Lambda VPC ENI actions, ecs:ListTasks (bounded by the ecs:cluster condition) and the ECS task-definition actions support no resource-level permissions.',
  };
  const tokens: WildcardJustification = {
    finding: nagArn('secretsmanager', `secret:reprise/${stage}/*/token-??????`),
    reason:
      'Agent token secrets are created per agent at runtime; the pattern admits only reprise/<stage>/<tenant>/<agent>/token.',
  };
  const tasks: WildcardJustification = {
    finding: nagArn('ecs', `task/reprise-${stage}-agents/*`),
    reason: 'Agent tasks get ids at launch; the grant is limited to tasks of the agents cluster.',
  };
  const vpcOnly: WildcardJustification = {
    finding: 'Resource::*',
    reason: 'The Lambda VPC network-interface actions support no resource-level permissions.',
  };
  const payloads: WildcardJustification = {
    finding: `Resource::arn:<AWS::Partition>:s3:::reprise-${stage}-payloads-<AWS::AccountId>-<AWS::Region>/*`,
    reason:
      'Payload objects are keyed by tenant and execution id, created at runtime; object actions only, no listing.',
  };
  acknowledgeWildcards(fns.events.role, [payloads]);
  acknowledgeWildcards(fns.scheduled.role, [payloads]);
  acknowledgeWildcards(fns.sweeper.role, [payloads]);
  acknowledgeWildcards(fns.runner.role, [vpcOnly, payloads]);
  acknowledgeWildcards(fns.taskEvents.role, [vpcOnly, payloads]);
  acknowledgeWildcards(fns.deadLetter.role, [vpcOnly]);
  acknowledgeWildcards(fns.api.role, [
    vpcOnly,
    payloads,
    {
      finding: nagArn('scheduler', `schedule/reprise-${stage}-schedules/*`),
      reason:
        "One EventBridge schedule per Reprise schedule, created at runtime; limited to this stage's group.",
    },
  ]);
  acknowledgeWildcards(fns.fleet.role, [
    everywhere,
    tokens,
    tasks,
    {
      finding: nagArn('ecs', `task-definition/reprise_${stage}_*`),
      reason:
        "One task definition family per agent, created at runtime; the prefix is this stage's families only.",
    },
    {
      finding: nagArn('iam', `role/reprise/${stage}/agents/*`, ''),
      reason:
        'Per-agent task roles are created at runtime under this path; creation also requires the agent permissions boundary.',
    },
    {
      finding: nagArn('elasticfilesystem', 'access-point/*'),
      reason:
        'Access point ids are assigned at creation; deletion is further limited by the reprise:stage resource tag.',
    },
  ]);

  Validations.of(stack.restApi.restApi).acknowledge(
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorization happens in the Lambda: it accepts Cognito JWTs and tenant API keys (X-Api-Key), which a gateway authorizer cannot both serve.',
    },
    {
      id: 'AwsSolutions-COG4',
      reason:
        'Cognito JWTs are verified in the Lambda with jose (JWKS, issuer, audience) next to API-key auth; see APIG4.',
    },
    {
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated by the zod schemas in the Lambda, the same schemas that generate the OpenAPI document.',
    },
    {
      id: 'AwsSolutions-APIG3',
      reason:
        'Stage throttling plus per-tenant rate limits in the app; a WAF web ACL is an account-level cost decision per deployment.',
    },
    {
      id: 'AwsSolutions-APIG6',
      reason:
        'JSON access logs are on; execution logs need the region-wide API Gateway CloudWatch role, which this app does not own.',
    },
  );
}
