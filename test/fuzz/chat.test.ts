/** The fuzz suite on Chat Completions, legacy Completions, model discovery, embeddings, rerank and moderations routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('chat-completions', 'completions', 'models', 'embeddings', 'rerank', 'moderations');
