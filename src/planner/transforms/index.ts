export { murmur3_32 } from './murmur3.js';
export { bucketHash, bucketHashInput, bucketOf } from './bucket.js';
export { truncateValue, truncateCodePoints } from './truncate.js';
export { timeTransform, type TimeUnit } from './time.js';
export { applyTransform, canTransform, preservesOrder } from './apply.js';
