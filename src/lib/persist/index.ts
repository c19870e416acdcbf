/** The learner's stored data: lesson progress, saved sandboxes, settings, lesson packs, drafts, backup. */
export {
  DB_NAME,
  DB_VERSION,
  closeDatabase,
  getDraft,
  getPack,
  listDrafts,
  listPacks,
  PackVersionError,
  removeDraft,
  removePack,
  saveDraft,
  savePack,
  type DraftInput,
  type PackInput,
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
export { onProgressChange, type ProgressChange } from './channel';
export type {
  DraftRecord,
  JsonValue,
  LessonStatus,
  PackRecord,
  ProgressRecord,
  SandboxRecord,
  SettingRecord
} from './records';
