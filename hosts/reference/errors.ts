// The flat error envelope `{error, message, details?}` (docs/wire.md §1.4) and the one exception
// type every handler throws to answer with it.

export interface ErrorEnvelope {
  error: string;
  message: string;
  details?: Record<string, unknown>;
}

/** An answer the host chose to give: thrown by handlers, turned into the envelope in one place. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) {
    // An answer, not a fault: it carries no stack, whose capture cost more than the rest of a
    // refusal (a certification draws hundreds of them).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  envelope(): ErrorEnvelope {
    return this.details === undefined ? { error: this.code, message: this.message } : { error: this.code, message: this.message, details: this.details };
  }
}

export function validationError(message: string, details?: Record<string, unknown>): HttpError {
  return new HttpError(400, 'validation_error', message, details);
}

/**
 * The one answer for a run the caller may not see. Its bytes never depend on the id, so an
 * unknown id and another tenant's id are indistinguishable (see server.ts, docs/wire.md §1.3).
 */
export function runNotFound(): HttpError {
  return new HttpError(404, 'not_found', 'no such run');
}

export function routeNotFound(): HttpError {
  return new HttpError(404, 'not_found', 'no such resource');
}

/** The host broke its own contract (an outgoing document failed its schema, a store error). */
export function internalError(): HttpError {
  return new HttpError(500, 'internal_error', 'the host failed to answer this request');
}
