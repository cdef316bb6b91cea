export type { FileIO, FileStat, DirEntry, WarehouseFileIO } from './file-io.js';
export { createLocalFileIO, readLocalFile, readLocalRange, type LocalFileIOOptions } from './local-file-io.js';
export { normalizeLocation, stripPrefix, type NormalLocation } from './location.js';
export * from './s3/index.js';
export type { FileWriter } from './file-writer.js';
export { createLocalFileWriter } from './local-file-writer.js';
