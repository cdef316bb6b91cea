export type { FileIO, FileStat } from './file-io.js';
