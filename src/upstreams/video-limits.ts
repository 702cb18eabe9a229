/**
 * The bound on one downloaded video, shared by the video upstreams: the
 * channel setting `maxVideoBytes` (its rule and default written here once).
 */
import { builtOnce } from '../core/built-once.js';
import { byteLimit } from './settings-schema.js';

export const DEFAULT_MAX_VIDEO_BYTES = 512 * 1024 * 1024;

export const maxVideoBytesSetting = builtOnce(() => byteLimit(DEFAULT_MAX_VIDEO_BYTES, 'Largest video downloaded from the service, in bytes.'));
