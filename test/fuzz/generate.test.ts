/** The fuzz suite on family generate's routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('generate');
