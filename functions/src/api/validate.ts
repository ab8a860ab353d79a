import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type * as z from 'zod/mini';
import { AppError, ValidationError } from '../lib/errors';
import { MAX_MESSAGE_CHARS } from '../lib/schemas/tasks';

/**
 * zValidator with our error body. A message over the limit is 413 rather than 400: the contract
 * treats it as an oversized payload, not a malformed one.
 */
export const validate = <T extends z.ZodMiniType, K extends keyof ValidationTargets>(target: K, schema: T) =>
  zValidator(target, schema, (result) => {
    if (result.success) return;
    const issues = result.error.issues;
    const tooLong = issues.find(
      (i) => i.code === 'too_big' && i.path.length === 1 && i.path[0] === 'message',
    );
    if (tooLong) {
      throw new AppError(413, 'payload_too_large', `message is longer than ${MAX_MESSAGE_CHARS} characters`);
    }
    throw new ValidationError(
      `Invalid ${target}`,
      issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  });
