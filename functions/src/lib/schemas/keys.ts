import * as z from 'zod/mini';
import { Timestamp } from './common';

/** The id the delete route accepts: bounded only, an unknown id is a 404 like any other. */
export const ApiKeyId = z.string().check(z.maxLength(64));

export const CreateApiKeyRequest = z.object({ name: z.string().check(z.minLength(1), z.maxLength(100)) });

export const ApiKeySummary = z.object({ id: z.string(), name: z.string(), created_at: Timestamp });
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

export const CreatedApiKey = z.object({ id: z.string(), name: z.string(), key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyList = z.object({ items: z.array(ApiKeySummary) });
