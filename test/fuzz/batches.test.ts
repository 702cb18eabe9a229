/** The fuzz suite on the files, batches and message batches routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('batches');
