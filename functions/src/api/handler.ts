import { handle } from 'hono/aws-lambda';
import { createAwsApp } from './aws-app';

/** API Gateway → Hono, buffered responses. */
export const handler = handle(createAwsApp('api'));
