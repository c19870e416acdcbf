/** YAML manifests ↔ objects with source positions, schema checks and all-or-nothing apply. */
export { ManifestError, formatIssue, type ManifestIssue } from './errors';
export { parseManifests, checkManifestDoc, type ParsedManifest } from './parse';
export { applyManifests, formatApplyResult, type ApplyResult } from './apply';
export { parseYamlDocuments, splitFieldPath, type YamlDoc, type Position } from './yamldocs';
