// Family B (video) with the official OpenAI client: create, wait, download.
import { writeFile } from 'node:fs/promises';
import OpenAI from 'openai';

const url = process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8080';
const key = process.env.SWITCHYARD_KEY; // the client key the first `npm start` printed

const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key });
let video = await client.videos.create({ model: 'sora-2', prompt: 'a lighthouse at dawn', seconds: '4', size: '1280x720' });
console.log(`created ${video.id}`);
// The gateway's status words are processing, succeeded and failed.
while (video.status !== 'succeeded' && video.status !== 'failed') {
  await new Promise((resolve) => setTimeout(resolve, 500));
  video = await client.videos.retrieve(video.id);
}
if (video.status === 'failed') {
  console.error(`video ${video.id} failed: ${JSON.stringify(video.error)}`);
  process.exit(1);
}
const content = await client.videos.downloadContent(video.id);
const bytes = Buffer.from(await content.arrayBuffer());
const file = process.env.VIDEO_FILE ?? 'video.mp4';
await writeFile(file, bytes);
console.log(`succeeded: ${bytes.length} bytes written to ${file}`);
