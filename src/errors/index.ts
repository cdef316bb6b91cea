export { ERROR_CODES, type ErrorCode } from './codes.js';
export { IcefrontError, isIcefrontError, fail } from './icefront-error.js';
