/** The fuzz suite on the admin API, the health routes and the console's pages (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('admin', 'health', 'console');
