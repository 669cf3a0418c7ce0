/**
 * Typed errors thrown by domain and route code. Only server/http/errors.ts turns them into
 * responses, in the three body shapes of the spec (Errors): `{detail}`, `{error}`, and an object
 * mapping a field name to an array of messages.
 */
export type FieldErrors = Record<string, string[]>;

export type ErrorBody = { kind: 'detail'; detail: string } | { kind: 'error'; error: string } | { kind: 'fields'; fields: FieldErrors };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.kind === 'detail' ? body.detail : body.kind === 'error' ? body.error : JSON.stringify(body.fields));
    this.name = 'ApiError';
  }

  withHeaders(headers: Record<string, string>): ApiError {
    return new ApiError(this.status, this.body, { ...this.headers, ...headers });
  }
}

export const detailError = (status: number, detail: string, headers?: Record<string, string>): ApiError =>
  new ApiError(status, { kind: 'detail', detail }, headers);

export const badRequest = (detail: string): ApiError => detailError(400, detail);
export const notFound = (detail: string): ApiError => detailError(404, detail);
export const unauthorized = (detail: string): ApiError => detailError(401, detail);
export const forbiddenError = (error: string): ApiError => new ApiError(403, { kind: 'error', error });
export const fieldErrors = (fields: FieldErrors): ApiError => new ApiError(400, { kind: 'fields', fields });

/**
 * A background write that cannot finish (a reference that does not exist, a conflict that
 * arose after the 202). Recorded on the job with this message; never sent by the API.
 */
export class WriteFailure extends Error {
  override name = 'WriteFailure';
}
