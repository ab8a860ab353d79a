import { streamHandle } from 'hono/aws-lambda';
import { createAwsApp } from './aws-app';

/**
 * The same app behind Lambda response streaming, for `GET /api/executions/{id}/events`: SSE
 * frames reach the client as they are written. Its own module because `streamHandle` needs the
 * Lambda runtime's `awslambda` global at import time.
 */
export const handler = streamHandle(createAwsApp('events'));
