/** The tools a Gemini upstream runs itself, by their field name in a Gemini `Tool` (the dialect's one list). */
import { generateBuiltinToolKinds } from '../../../dialects/generate/features.js';

export const geminiBuiltinTools: ReadonlySet<string> = new Set(generateBuiltinToolKinds);
