import type { Identity } from '../core/identity';
import type { Logger } from '../lib/log';

/** Hono context variables set by the middleware chain. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    identity: Identity;
  };
}
