/** Problems found in a manifest or scenario file, each pointing at a file, line, column and field. */
export interface ManifestIssue {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** Field path such as `spec.containers[0].image`; empty for a problem with the whole document. */
  path: string;
  message: string;
}

export function formatIssue(i: ManifestIssue): string {
  return `${i.file}:${i.line}:${i.column}: ${i.message}`;
}

export class ManifestError extends Error {
  constructor(readonly issues: ManifestIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'ManifestError';
  }
}
