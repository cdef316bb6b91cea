export { ERROR_CODES, genericErrorType, type ErrorCode } from './codes.js';
export { IcefrontError, isIcefrontError, fail, slowDown } from './icefront-error.js';
