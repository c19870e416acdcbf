/**
 * What a Monaco editor on the page needs from the page around it (light: no Monaco import, so
 * the components can use it before the editor's chunk loads).
 */

/** The page's theme (data-theme, else the system's): Monaco follows it. */
export function monacoTheme(): string {
  const set = document.documentElement.getAttribute('data-theme');
  const dark = set ? set === 'dark' : matchMedia?.('(prefers-color-scheme: dark)').matches;
  return dark ? 'vs-dark' : 'vs';
}

/** Focus the next control after `host` in tab order (where Escape leaves the editor to). */
export function focusAfter(host: HTMLElement | undefined): void {
  if (!host) return;
  const all = [
    ...document.querySelectorAll<HTMLElement>(
      'button:not([disabled]), input:not([disabled]), select, textarea, a[href], [tabindex]:not([tabindex="-1"])'
    )
  ].filter((el) => !host.contains(el) && el.offsetParent !== null);
  const next = all.find((el) => host.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  (next ?? all[0])?.focus();
}
