export { ERROR_CODES, genericErrorType, type ErrorCode } from './codes.js';
export { IcefrontError, isIcefrontError, fail } from './icefront-error.js';
