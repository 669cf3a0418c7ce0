/**
 * Applies parsed transformation steps with sharp, one step at a time and in the order given
 * (a single sharp pipeline has a fixed operation order, so chaining needs raw intermediates).
 * Inputs are bounded (limitInputPixels) and every output side is capped by the parser.
 */
import type { Metadata, Sharp } from 'sharp';
import { badRequest } from '../domain/errors.js';
import { MAX_SIDE, type OutputFormat, type TransformStep } from '../domain/media/transform.js';

type SharpFactory = (typeof import('sharp'))['default'];

let loading: Promise<SharpFactory> | null = null;

/**
 * sharp, loaded at the first image this process transforms or measures: importing it (libvips
 * and its start-up) adds ~28 MB resident, which a suite that never asks the CDN for a transform
 * has no use for.
 */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache (by default up to 50 MB, 100 operations and 20 open files) would
    // keep sources and intermediates that are rarely asked for again: the CDN keeps every
    // transformed image on disk (cdn.ts), so a repeated transform never reaches sharp. Measured:
    // 20 transforms of the demo's hero image left 7 MB more resident with the cache than without.
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/** Larger sources are refused rather than decoded (about 7000×7000). */
const MAX_INPUT_PIXELS = 50_000_000;

const CONTENT_TYPES: Record<OutputFormat, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif' };

export interface TransformedImage {
  data: Buffer;
  contentType: string;
  format: OutputFormat;
}

/** The format a source keeps when no `output` step names one. */
function sourceFormat(format: string | undefined): OutputFormat {
  if (format === 'jpeg' || format === 'jpg') return 'jpg';
  if (format === 'webp') return 'webp';
  if (format === 'avif' || format === 'heif') return 'avif';
  return 'png';
}

interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const open = (sharp: SharpFactory, raw: Raw): Sharp =>
  sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });

async function toRaw(pipeline: Sharp): Promise<Raw> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

const FIT = { clip: 'inside', crop: 'cover', scale: 'fill', max: 'inside' } as const;

/** `current`: the size the image has before this step (crop needs it). */
function applyStep(image: Sharp, step: TransformStep, current: { width: number; height: number }): Sharp {
  switch (step.op) {
    case 'resize':
      return image.resize({
        width: step.width ?? undefined,
        height: step.height ?? undefined,
        fit: step.width !== null && step.height !== null ? FIT[step.fit] : 'inside',
        position: step.align === 'center' ? 'centre' : step.align,
        withoutEnlargement: step.fit === 'max',
      });
    case 'crop': {
      if (step.x >= current.width || step.y >= current.height) {
        throw badRequest(`Invalid transformation "crop": the area starts outside the ${current.width}×${current.height} image`);
      }
      const width = Math.min(step.width, current.width - step.x);
      const height = Math.min(step.height, current.height - step.y);
      return image.extract({ left: step.x, top: step.y, width, height });
    }
    case 'rotate':
      return step.deg === 'exif' ? image : image.rotate(step.deg, { background: step.background });
    case 'flip':
      return image.flip();
    case 'flop':
      return image.flop();
    case 'monochrome':
      return image.grayscale();
    case 'blur':
      return image.blur(step.amount);
    case 'sharpen':
      return image.sharpen({ sigma: step.amount });
    case 'output':
      return image;
  }
}

function encode(image: Sharp, format: OutputFormat, quality: number | null): Sharp {
  const q = quality ?? undefined;
  switch (format) {
    case 'jpg':
      return image.flatten({ background: '#ffffff' }).jpeg({ quality: q, mozjpeg: false });
    case 'webp':
      return image.webp({ quality: q });
    case 'avif':
      return image.avif({ quality: q });
    case 'png':
      return image.png();
  }
}

export async function transformImage(source: string | Buffer, steps: readonly TransformStep[]): Promise<TransformedImage> {
  const sharp = await loadSharp();
  let input: Sharp;
  let meta: Metadata;
  try {
    input = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    meta = await input.metadata();
  } catch (err) {
    throw badRequest(`This file cannot be transformed as an image (${(err as Error).message}).`);
  }
  let format = sourceFormat(meta.format);
  let quality: number | null = null;
  for (const step of steps) {
    if (step.op === 'output') {
      format = step.format ?? format;
      quality = step.quality ?? quality;
    }
  }
  const operations = steps.filter((step) => step.op !== 'output');
  // Orient by EXIF first, as browsers show the original. A leading resize runs while decoding,
  // so JPEG can shrink on load (a 2000×2000 → 400×400 transform is about twice as fast).
  let pipeline = input.autoOrient();
  const [first, ...rest] = operations;
  if (first?.op === 'resize') {
    pipeline = applyStep(pipeline, first, { width: 0, height: 0 });
    if (rest.length === 0) {
      const data = await encode(pipeline, format, quality).toBuffer();
      return { data, contentType: CONTENT_TYPES[format], format };
    }
  }
  let raw = await toRaw(pipeline);
  for (const step of first?.op === 'resize' ? rest : operations) {
    raw = await toRaw(applyStep(open(sharp, raw), step, raw));
    // Rotation grows an image; every intermediate stays within the documented bound.
    if (raw.width > MAX_SIDE || raw.height > MAX_SIDE) {
      throw badRequest(`Invalid transformation "${step.op}": the result would be ${raw.width}×${raw.height}, over ${MAX_SIDE} px a side`);
    }
  }
  const data = await encode(open(sharp, raw), format, quality).toBuffer();
  return { data, contentType: CONTENT_TYPES[format], format };
}

/** Width and height of an image file, or nulls for other media. */
export async function imageSize(file: string): Promise<{ width: number | null; height: number | null }> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(file, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    return { width: meta.autoOrient?.width ?? meta.width ?? null, height: meta.autoOrient?.height ?? meta.height ?? null };
  } catch {
    return { width: null, height: null };
  }
}
