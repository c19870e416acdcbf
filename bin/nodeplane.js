#!/usr/bin/env node
// The `nodeplane` command: registers tsx so Node can load the TypeScript sources, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { cli } = await import('../cli/main.ts');
await cli();
