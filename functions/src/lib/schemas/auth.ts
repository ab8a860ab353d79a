import * as z from 'zod/mini';
import { Email } from './common';

export const DevTokenRequest = z.object({ email: Email });

export const DevTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
});
export type DevTokenResponse = z.infer<typeof DevTokenResponse>;
