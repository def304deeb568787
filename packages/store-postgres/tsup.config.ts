import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.js';

// The importer CLI (`bin: catalogue-api`) is a second entry: `dist/cli.js`.
export default defineConfig({ ...base, entry: ['src/index.ts', 'src/cli.ts'] });
