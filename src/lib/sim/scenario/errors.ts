import { ManifestError, type ManifestIssue } from '../manifests';

/** A scenario file that cannot run: every problem with file, line, column and field. */
export class ScenarioError extends ManifestError {
  constructor(issues: ManifestIssue[]) {
    super(issues);
    this.name = 'ScenarioError';
  }
}
