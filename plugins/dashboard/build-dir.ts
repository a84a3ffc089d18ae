// Where the built app lives: under the package's dist/, beside the compiled gateway.
import { join } from 'node:path';
import { REPO_ROOT } from '../../core/config.js';

export const DASHBOARD_BUILD_DIR = join(REPO_ROOT, 'dist', 'dashboard');
