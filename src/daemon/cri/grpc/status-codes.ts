/**
 * CriError codes are the names Go's grpc/codes prints (`NotFound`, `FailedPrecondition`...), so a
 * message from containerd and one from the fake runtime read alike; here they meet gRPC's numbers
 * (docs/design/cri.md §5).
 */
import { status as GrpcStatus, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { CriError } from '../services.js';

const codeNames: Record<GrpcStatus, string> = {
  [GrpcStatus.OK]: 'OK',
  [GrpcStatus.CANCELLED]: 'Canceled',
  [GrpcStatus.UNKNOWN]: 'Unknown',
  [GrpcStatus.INVALID_ARGUMENT]: 'InvalidArgument',
  [GrpcStatus.DEADLINE_EXCEEDED]: 'DeadlineExceeded',
  [GrpcStatus.NOT_FOUND]: 'NotFound',
  [GrpcStatus.ALREADY_EXISTS]: 'AlreadyExists',
  [GrpcStatus.PERMISSION_DENIED]: 'PermissionDenied',
  [GrpcStatus.RESOURCE_EXHAUSTED]: 'ResourceExhausted',
  [GrpcStatus.FAILED_PRECONDITION]: 'FailedPrecondition',
  [GrpcStatus.ABORTED]: 'Aborted',
  [GrpcStatus.OUT_OF_RANGE]: 'OutOfRange',
  [GrpcStatus.UNIMPLEMENTED]: 'Unimplemented',
  [GrpcStatus.INTERNAL]: 'Internal',
  [GrpcStatus.UNAVAILABLE]: 'Unavailable',
  [GrpcStatus.DATA_LOSS]: 'DataLoss',
  [GrpcStatus.UNAUTHENTICATED]: 'Unauthenticated',
};

const codesByName = new Map(Object.entries(codeNames).map(([code, name]) => [name, Number(code) as GrpcStatus]));

/**
 * What the server answers for an error of the runtime: a CriError keeps its code (an unknown code
 * name becomes Unknown); any other error is Unknown, as a Go server answers a plain error.
 */
export function toGrpcStatus(error: unknown): Partial<StatusObject> {
  const details = error instanceof Error ? error.message : String(error);
  const code = error instanceof CriError ? codesByName.get(error.code) ?? GrpcStatus.UNKNOWN : GrpcStatus.UNKNOWN;
  return { code, details };
}

/** What the client throws for a failed call: a CriError with the status's code name and message. */
export function fromGrpcError(error: ServiceError): CriError {
  return new CriError(codeNames[error.code] ?? 'Unknown', error.details || error.message);
}
