export { createPassThrough, upstreamFailure, type PassThrough, type PassThroughTarget } from './pass-through.js';
