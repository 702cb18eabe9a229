/** The fuzz suite on family responses's routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('responses');
