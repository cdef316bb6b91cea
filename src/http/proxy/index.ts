export { createPassThrough, type PassThrough, type PassThroughTarget } from './pass-through.js';
