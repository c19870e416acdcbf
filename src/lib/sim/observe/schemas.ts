/**
 * The JSON Schemas the YAML editor validates against (object kinds and scenario files): data the
 * page's editor needs, kept apart from the read-model types so only the editor loads them.
 */
export { editorSchemas } from '../schemas';
