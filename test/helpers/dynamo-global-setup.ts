import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../infra/local/src/dynamodb';
import { provideOrExit } from './system-packages';

/** One DynamoDB Local for the whole integration run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  provideOrExit(project.vitest.projects.map((p) => p.name));
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
