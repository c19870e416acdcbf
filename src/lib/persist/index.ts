/** The learner's stored data: lesson progress, saved sandboxes, settings, backup. */
export {
  DB_NAME,
  DB_VERSION,
  closeDatabase,
  deleteSandbox,
  getProgress,
  getSandbox,
  getSetting,
  listProgress,
  listSandboxes,
  listSettings,
  putProgress,
  resetProgress,
  saveSandbox,
  setSetting,
  storageAvailable,
  StorageError,
  type ProgressInput,
  type SandboxInput
} from './db';
export {
  BACKUP_FORMAT,
  ImportError,
  backupIssues,
  exportAll,
  importAll,
  type Backup,
  type ImportResult
} from './backup';
export { corruptRecords, onCorrupt, type CorruptRecord } from './corrupt';
export type { JsonValue, LessonStatus, ProgressRecord, SandboxRecord, SettingRecord } from './records';
