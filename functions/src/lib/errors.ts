/**
 * One error hierarchy for the whole platform. Routes throw these; one `onError` renders
 * `{"error":{"code","message"}}`. Anything that is not an AppError is answered as a plain 500.
 */
export type ErrorCode =
  | 'validation_error'
  | 'invalid_session_id'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'session_not_found'
  | 'agent_not_running'
  | 'session_busy'
  | 'conflict'
  | 'session_expired'
  | 'payload_too_large'
  | 'rate_limited'
  | 'idempotency_key_reused'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'headers_too_large'
  | 'not_ready'
  | 'internal';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: unknown[] } } {
    return {
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown[]) {
    super(400, 'validation_error', message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') {
    super(401, 'unauthorized', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Your role may not do this') {
    super(403, 'forbidden', message);
  }
}

/** Unknown and forbidden look the same: callers must not learn that something exists. */
export class NotFoundError extends AppError {
  constructor(what = 'Resource') {
    super(404, 'not_found', `${what} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code: ErrorCode = 'conflict') {
    super(409, code, message);
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
