/** DefaultBinder (Bind): the framework's binder writes spec.nodeName through the API. */
import type { Plugin } from '../types';

export const Name = 'DefaultBinder';

export function create(): Plugin {
  return { name: Name, bind: () => null };
}
