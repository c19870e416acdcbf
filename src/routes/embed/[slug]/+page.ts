// The same lesson data as the lesson page: /lessons/<slug>.json, prerendered beside it.
export { load } from '../../lessons/[slug]/+page';
