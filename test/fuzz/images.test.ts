/** The fuzz suite on family images's routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('images');
