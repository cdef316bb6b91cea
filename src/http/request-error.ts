/**
 * The ErrorModel a request was answered with (its type and message), kept beside the request when
 * sendError writes it, so the status page can say why a plan was refused (request-record.ts).
 * Messages are written for clients and name no credential.
 */
import { requestSlot } from './request-slot.js';

export interface RequestError {
  readonly type: string;
  readonly message: string;
}

const errors = requestSlot<RequestError>('icefront.error');

export function noteError(request: object, error: RequestError): void {
  errors.set(request, error);
}

export function errorOf(request: object): RequestError | undefined {
  return errors.get(request);
}
