import type { ErrorBody } from '@reprise/functions/schemas';

/** Every non-2xx answer, typed from the API's one error body `{error: {code, message}}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
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
    );
  }
}

export const isApiError = (err: unknown, code?: string): err is ApiError =>
  err instanceof ApiError && (code === undefined || err.code === code);

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return 'Something went wrong';
}
