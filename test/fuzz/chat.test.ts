/** The fuzz suite on Chat Completions, legacy Completions, model discovery, embeddings, rerank, moderations, image generation and audio routes (see harness.ts). */
import { fuzzFamilies } from './harness.js';

fuzzFamilies('chat-completions', 'completions', 'models', 'embeddings', 'rerank', 'moderations', 'image-generations', 'audio');
