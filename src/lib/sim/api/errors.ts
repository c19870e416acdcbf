/**
 * API errors shaped like metav1.Status, with kube-apiserver's wording.
 * kubectl prints them as `Error from server (<reason>): <message>`.
 */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Forbidden'
  | 'TooManyRequests'
  | 'InternalError'
  | 'Timeout'
  | 'ServiceUnavailable'
  | '';

export interface StatusCause {
  field: string;
  reason: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly causes: StatusCause[] = []
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The line kubectl prints for this error. */
  kubectlMessage(): string {
    return this.reason
      ? `Error from server (${this.reason}): ${this.message}`
      : `Error from server: ${this.message}`;
  }
}

export function notFound(plural: string, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${plural} "${name}" not found`);
}

export function alreadyExists(plural: string, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${plural} "${name}" already exists`);
}

export function conflict(plural: string, name: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${plural} "${name}": the object has been modified; please apply your changes to the latest version and try again`
  );
}

/** `Pod "x" is invalid: spec.containers[0].image: Required value` */
export function invalid(kind: string, name: string, causes: StatusCause[]): ApiError {
  const details = causes.map((c) => `${c.field}: ${c.message}`);
  const msg =
    details.length === 1
      ? `${kind} "${name}" is invalid: ${details[0]}`
      : `${kind} "${name}" is invalid: [${details.join(', ')}]`;
  return new ApiError(422, 'Invalid', msg, causes);
}

/** What the API server answers when etcd has no leader (no quorum): the write times out. */
export function etcdUnavailable(): ApiError {
  return new ApiError(500, '', 'etcdserver: request timed out');
}

/** A client that cannot reach any API server (partitioned node, all API servers stopped). */
export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

export function isApiError(e: unknown, reason?: StatusReason): e is ApiError {
  return e instanceof ApiError && (reason === undefined || e.reason === reason);
}
