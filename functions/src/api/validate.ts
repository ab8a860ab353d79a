import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type * as z from 'zod/mini';
import { AppError, ValidationError } from '../lib/errors';

/** Text fields whose length limit is a payload limit: over it is 413, not 400. */
const PAYLOAD_FIELDS = new Set(['message', 'system_prompt']);

/**
 * zValidator with our error body. A message or system prompt over its limit is 413 rather than
 * 400: the contract treats it as an oversized payload, not a malformed one.
 */
export const validate = <T extends z.ZodMiniType, K extends keyof ValidationTargets>(target: K, schema: T) =>
  zValidator(target, schema, (result) => {
    if (result.success) return;
    const issues = result.error.issues;
    const tooLong = issues.find(
      (i) => i.code === 'too_big' && i.path.length === 1 && PAYLOAD_FIELDS.has(String(i.path[0])),
    );
    if (tooLong) {
      throw new AppError(413, 'payload_too_large', `${String(tooLong.path[0])}: ${tooLong.message}`);
    }
    throw new ValidationError(
      `Invalid ${target}`,
      issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  });
