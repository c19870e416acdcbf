// Unit tests call t() on any area without a page to ask for it: load every catalog first, as the
// root layout does for a page's areas (src/lib/i18n/routes.ts). The loader's own behaviour is
// tested on translators of its own (src/lib/i18n/i18n.test.ts).
import { ensureNamespaces, namespaces } from '$lib/i18n/index.svelte';

await ensureNamespaces(namespaces());
