import type { ErrorBody } from '@reprise/functions/schemas';

/** One entry of a 400's `details`: which input is at fault (`cron`, `timezone`, …) and why. */
export type FieldError = { path: string; message: string };

/** Every non-2xx answer, typed from the API's one error body `{error: {code, message, details?}}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** A validation error's fields, so a form can show each message next to its input. */
  readonly details: FieldError[];

  constructor(status: number, code: string, message: string, details: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  static async from(res: Response): Promise<ApiError> {
    let body: Partial<ErrorBody> | null = null;
    try {
      body = (await res.json()) as Partial<ErrorBody>;
    } catch {
      // Gateways and proxies answer with HTML or nothing; keep the status.
    }
    const err = body?.error;
    return new ApiError(
      res.status,
      err?.code ?? (res.status === 401 ? 'unauthorized' : 'http_error'),
      err?.message ?? `Request failed (${res.status})`,
      (err?.details ?? []).filter(
        (d): d is FieldError =>
          typeof (d as FieldError)?.path === 'string' && typeof (d as FieldError)?.message === 'string',
      ),
    );
  }
}

export const isApiError = (err: unknown, code?: string): err is ApiError =>
  err instanceof ApiError && (code === undefined || err.code === code);

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return 'Something went wrong';
}
