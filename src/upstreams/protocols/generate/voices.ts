/**
 * The voice a Gemini speech model is asked for: one of Google's prebuilt
 * voices, named as it is (any letter case), or an OpenAI voice read through
 * a fixed table of the Gemini voice nearest its character (docs/providers.md
 * shows it). Any other name is refused, naming `voice`.
 */

/** Google's prebuilt voices of the Gemini TTS models. */
export const GEMINI_VOICES = [
  'Zephyr',
  'Puck',
  'Charon',
  'Kore',
  'Fenrir',
  'Leda',
  'Orus',
  'Aoede',
  'Callirrhoe',
  'Autonoe',
  'Enceladus',
  'Iapetus',
  'Umbriel',
  'Algieba',
  'Despina',
  'Erinome',
  'Algenib',
  'Rasalgethi',
  'Laomedeia',
  'Achernar',
  'Alnilam',
  'Schedar',
  'Gacrux',
  'Pulcherrima',
  'Achird',
  'Zubenelgenubi',
  'Vindemiatrix',
  'Sadachbia',
  'Sadaltager',
  'Sulafat',
] as const;

/** OpenAI's voices, each as the Gemini voice of the nearest character (Google's own words for it in the comment). */
export const OPENAI_TO_GEMINI_VOICE: Readonly<Record<string, string>> = {
  alloy: 'Kore', // firm, neutral
  ash: 'Charon', // informative
  ballad: 'Algieba', // smooth
  coral: 'Aoede', // breezy
  echo: 'Puck', // upbeat
  fable: 'Fenrir', // excitable
  onyx: 'Orus', // firm, low
  nova: 'Leda', // youthful
  sage: 'Schedar', // even
  shimmer: 'Achernar', // soft
  verse: 'Sulafat', // warm
  marin: 'Despina', // smooth
  cedar: 'Gacrux', // mature
};

const byLowerName = new Map<string, string>([...GEMINI_VOICES.map((name): [string, string] => [name.toLowerCase(), name]), ...Object.entries(OPENAI_TO_GEMINI_VOICE)]);

/** The Gemini voice for a client's voice name; undefined when it names none. */
export function geminiVoice(voice: string): string | undefined {
  return byLowerName.get(voice.toLowerCase());
}
