/** The fuzz suite on family videos's routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('videos');
