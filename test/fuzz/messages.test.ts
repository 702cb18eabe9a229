/** The fuzz suite on family messages's routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('messages');
