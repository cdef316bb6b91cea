export {
  DeleteFileIndex,
  DELETE_FILE_PATH_ID,
  isDeletionVector,
  referencedDataFile,
  type DeleteIndexContext,
} from './delete-file-index.js';
export { partitionKey } from './partition-key.js';
