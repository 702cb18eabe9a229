/** The fuzz suite on Chat Completions, model discovery and embeddings routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('chat-completions', 'models', 'embeddings');
