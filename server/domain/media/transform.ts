/**
 * Image transformation URLs of the CDN (spec: Image transformation:
 * `{cdn_url}/resize=width:<w>,height:<h>/<image_id>`). The spec says the options belong to an
 * external image-processing integration; we implement the steps that integration is used for
 * most, in its syntax: `name=key:value,key:value`, steps chained with `/`, applied in order.
 *
 *   resize=width:W,height:H,fit:clip|crop|scale|max,align:center|top|bottom|left|right
 *   crop=dim:[x,y,width,height]
 *   rotate=deg:0-359|exif,background:<hex colour>
 *   flip   flop   monochrome
 *   blur=amount:0.3-100        sharpen=amount:0.3-100
 *   output=format:jpg|png|webp|avif,quality:1-100
 *   quality=value:1-100
 *
 * Limits keep a request from exhausting memory: output sides at most MAX_SIDE, at most
 * MAX_STEPS steps. Anything else is a 400 that names the step.
 */
import { badRequest } from '../errors.js';

export const MAX_SIDE = 4000;
export const MAX_STEPS = 10;

export type Fit = 'clip' | 'crop' | 'scale' | 'max';
export type Align = 'center' | 'top' | 'bottom' | 'left' | 'right';
export type OutputFormat = 'jpg' | 'png' | 'webp' | 'avif';

export type TransformStep =
  | { op: 'resize'; width: number | null; height: number | null; fit: Fit; align: Align }
  | { op: 'crop'; x: number; y: number; width: number; height: number }
  | { op: 'rotate'; deg: number | 'exif'; background: string }
  | { op: 'flip' }
  | { op: 'flop' }
  | { op: 'monochrome' }
  | { op: 'blur'; amount: number }
  | { op: 'sharpen'; amount: number }
  | { op: 'output'; format: OutputFormat | null; quality: number | null };

const FITS: readonly Fit[] = ['clip', 'crop', 'scale', 'max'];
const ALIGNS: readonly Align[] = ['center', 'top', 'bottom', 'left', 'right'];
const FORMATS: Record<string, OutputFormat> = { jpg: 'jpg', jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' };
const OPERATIONS = ['resize', 'crop', 'rotate', 'flip', 'flop', 'monochrome', 'blur', 'sharpen', 'output', 'quality'];

function fail(step: string, why: string): never {
  throw badRequest(`Invalid transformation "${step}": ${why}`);
}

/** `width:300,height:200` → Map; a value may be a bracketed list `[0,0,10,10]`. */
function parseParams(step: string, text: string): Map<string, string> {
  const params = new Map<string, string>();
  const parts = text.match(/[^,[\]]+:\[[^\]]*\]|[^,]+/g) ?? [];
  for (const part of parts) {
    const colon = part.indexOf(':');
    if (colon <= 0) fail(step, `"${part}" is not key:value`);
    const key = part.slice(0, colon).trim();
    if (params.has(key)) fail(step, `"${key}" is given twice`);
    params.set(key, part.slice(colon + 1).trim());
  }
  return params;
}

function int(step: string, name: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined || !/^\d{1,6}$/.test(raw)) fail(step, `${name} must be a whole number from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) fail(step, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

function num(step: string, name: string, raw: string | undefined, min: number, max: number): number {
  const n = raw !== undefined && /^\d{1,4}(\.\d{1,3})?$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) fail(step, `${name} must be a number from ${min} to ${max}`);
  return n;
}

function only(step: string, params: Map<string, string>, allowed: string[]): void {
  for (const key of params.keys())
    if (!allowed.includes(key)) fail(step, `unknown option "${key}" (allowed: ${allowed.join(', ') || 'none'})`);
}

function parseStep(step: string): TransformStep {
  const eq = step.indexOf('=');
  const name = eq === -1 ? step : step.slice(0, eq);
  const params = eq === -1 ? new Map<string, string>() : parseParams(step, step.slice(eq + 1));
  switch (name) {
    case 'resize': {
      only(step, params, ['width', 'height', 'fit', 'align']);
      const width = params.has('width') ? int(step, 'width', params.get('width'), 1, MAX_SIDE) : null;
      const height = params.has('height') ? int(step, 'height', params.get('height'), 1, MAX_SIDE) : null;
      if (width === null && height === null) fail(step, 'give width, height or both');
      const fit = (params.get('fit') ?? 'clip') as Fit;
      if (!FITS.includes(fit)) fail(step, `fit must be one of ${FITS.join(', ')}`);
      const align = (params.get('align') ?? 'center') as Align;
      if (!ALIGNS.includes(align)) fail(step, `align must be one of ${ALIGNS.join(', ')}`);
      return { op: 'resize', width, height, fit, align };
    }
    case 'crop': {
      only(step, params, ['dim']);
      const dim = /^\[(\d+),(\d+),(\d+),(\d+)\]$/.exec((params.get('dim') ?? '').replace(/\s/g, ''));
      if (!dim) fail(step, 'dim must be [x,y,width,height]');
      const [x, y, width, height] = dim.slice(1).map(Number) as [number, number, number, number];
      if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
        fail(step, `crop width and height must be from 1 to ${MAX_SIDE}`);
      return { op: 'crop', x, y, width, height };
    }
    case 'rotate': {
      only(step, params, ['deg', 'background']);
      const rawDeg = params.get('deg');
      const deg = rawDeg === 'exif' ? 'exif' : int(step, 'deg', rawDeg, 0, 359);
      const background = params.get('background') ?? 'ffffff';
      if (!/^[0-9a-f]{6}$/i.test(background)) fail(step, 'background must be a hex colour such as ffffff');
      return { op: 'rotate', deg, background: `#${background.toLowerCase()}` };
    }
    case 'flip':
    case 'flop':
    case 'monochrome':
      only(step, params, []);
      return { op: name };
    case 'blur':
    case 'sharpen':
      only(step, params, ['amount']);
      return { op: name, amount: num(step, 'amount', params.get('amount') ?? '2', 0.3, 100) };
    case 'output': {
      only(step, params, ['format', 'quality']);
      const rawFormat = params.get('format');
      const format =
        rawFormat === undefined ? null : (FORMATS[rawFormat.toLowerCase()] ?? fail(step, `format must be one of jpg, png, webp, avif`));
      const quality = params.has('quality') ? int(step, 'quality', params.get('quality'), 1, 100) : null;
      if (format === null && quality === null) fail(step, 'give format, quality or both');
      return { op: 'output', format, quality };
    }
    case 'quality':
      only(step, params, ['value']);
      return { op: 'output', format: null, quality: int(step, 'value', params.get('value'), 1, 100) };
    default:
      return fail(step, `unknown step "${name}" (supported: ${OPERATIONS.join(', ')})`);
  }
}

/** Parses the transformation segments of a CDN path (everything before the image id). */
export function parseTransforms(segments: readonly string[]): TransformStep[] {
  if (segments.length > MAX_STEPS) throw badRequest(`At most ${MAX_STEPS} transformation steps may be chained.`);
  return segments.map((segment) => {
    let step: string;
    try {
      step = decodeURIComponent(segment).trim();
    } catch {
      return fail(segment, 'malformed percent-encoding');
    }
    return parseStep(step);
  });
}

/** A canonical text of the steps: the cache key of a transformed image. */
export function canonicalTransforms(steps: readonly TransformStep[]): string {
  return JSON.stringify(steps);
}
