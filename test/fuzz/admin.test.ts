/** The fuzz suite on the admin API and the health routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('admin', 'health');
