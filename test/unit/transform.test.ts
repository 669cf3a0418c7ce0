/**
 * The transformation segments of CDN URLs (spec: Image transformation, "`{cdn_url}/resize=width:<w>,height:<h>/<image_id>`";
 * the steps, syntax and bounds are docs/spec-gaps.md, "Media library and image CDN"). parseTransforms turns the
 * segments before the image id into steps or throws a 400 ApiError naming the step; canonicalTransforms is the
 * cache key of a transformed image, so it must be stable for equal steps and differ for different ones.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/domain/errors.js';
import { canonicalTransforms, MAX_SIDE, MAX_STEPS, parseTransforms, type TransformStep } from '../../server/domain/media/transform.js';

/** The 400 a call throws, or a test failure when it throws nothing or something else. */
function rejection(segments: readonly string[]): { status: number; detail: string } {
  try {
    parseTransforms(segments);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const error = err as ApiError;
    if (error.body.kind !== 'detail') throw new Error(`expected a {detail} body, got ${error.body.kind}`, { cause: err });
    return { status: error.status, detail: error.body.detail };
  }
  throw new Error(`parseTransforms(${JSON.stringify(segments)}) did not throw`);
}

const resize = (width: number | null, height: number | null, fit = 'clip', align = 'center'): TransformStep =>
  ({ op: 'resize', width, height, fit, align }) as TransformStep;

describe('parseTransforms: valid steps', () => {
  it.each<[string, TransformStep]>([
    ['resize=width:300,height:200', resize(300, 200)],
    ['resize=width:300', resize(300, null)],
    ['resize=height:200', resize(null, 200)],
    ['resize=height:200,width:300', resize(300, 200)],
    ['resize=width:1', resize(1, null)],
    [`resize=width:${MAX_SIDE},height:${MAX_SIDE}`, resize(MAX_SIDE, MAX_SIDE)],
    ['resize=width:300,height:200,fit:clip', resize(300, 200, 'clip')],
    ['resize=width:300,height:200,fit:crop', resize(300, 200, 'crop')],
    ['resize=width:300,height:200,fit:scale', resize(300, 200, 'scale')],
    ['resize=width:300,height:200,fit:max', resize(300, 200, 'max')],
    ['resize=width:300,height:200,fit:crop,align:top', resize(300, 200, 'crop', 'top')],
    ['resize=width:300,height:200,fit:crop,align:bottom', resize(300, 200, 'crop', 'bottom')],
    ['resize=width:300,height:200,fit:crop,align:left', resize(300, 200, 'crop', 'left')],
    ['resize=width:300,height:200,fit:crop,align:right', resize(300, 200, 'crop', 'right')],
    ['resize=width:300,height:200,fit:crop,align:center', resize(300, 200, 'crop', 'center')],
    ['resize=width: 300 , height: 200', resize(300, 200)],
    ['crop=dim:[10,20,30,40]', { op: 'crop', x: 10, y: 20, width: 30, height: 40 }],
    ['crop=dim:[ 0, 0, 1, 1 ]', { op: 'crop', x: 0, y: 0, width: 1, height: 1 }],
    [`crop=dim:[0,0,${MAX_SIDE},${MAX_SIDE}]`, { op: 'crop', x: 0, y: 0, width: MAX_SIDE, height: MAX_SIDE }],
    ['rotate=deg:90', { op: 'rotate', deg: 90, background: '#ffffff' }],
    ['rotate=deg:0', { op: 'rotate', deg: 0, background: '#ffffff' }],
    ['rotate=deg:359,background:00ff00', { op: 'rotate', deg: 359, background: '#00ff00' }],
    ['rotate=deg:exif', { op: 'rotate', deg: 'exif', background: '#ffffff' }],
    ['flip', { op: 'flip' }],
    ['flop', { op: 'flop' }],
    ['monochrome', { op: 'monochrome' }],
    ['blur', { op: 'blur', amount: 2 }],
    ['blur=amount:0.3', { op: 'blur', amount: 0.3 }],
    ['blur=amount:100', { op: 'blur', amount: 100 }],
    ['sharpen=amount:1.5', { op: 'sharpen', amount: 1.5 }],
    ['sharpen', { op: 'sharpen', amount: 2 }],
    ['output=format:jpg', { op: 'output', format: 'jpg', quality: null }],
    ['output=format:jpeg', { op: 'output', format: 'jpg', quality: null }],
    ['output=format:PNG', { op: 'output', format: 'png', quality: null }],
    ['output=format:webp,quality:80', { op: 'output', format: 'webp', quality: 80 }],
    ['output=format:avif,quality:1', { op: 'output', format: 'avif', quality: 1 }],
    ['output=quality:100', { op: 'output', format: null, quality: 100 }],
    ['quality=value:55', { op: 'output', format: null, quality: 55 }],
    ['resize%3Dwidth%3A300', resize(300, null)],
    ['  flip  ', { op: 'flip' }],
  ])('%s', (segment, step) => {
    expect(parseTransforms([segment])).toEqual([step]);
  });

  it('no segments: no steps (the original)', () => {
    expect(parseTransforms([])).toEqual([]);
  });

  it('keeps the order of chained steps', () => {
    expect(parseTransforms(['flip', 'resize=width:10', 'monochrome', 'output=format:png'])).toEqual([
      { op: 'flip' },
      resize(10, null),
      { op: 'monochrome' },
      { op: 'output', format: 'png', quality: null },
    ]);
  });

  it(`accepts exactly ${MAX_STEPS} steps`, () => {
    expect(parseTransforms(Array.from({ length: MAX_STEPS }, () => 'flip'))).toHaveLength(MAX_STEPS);
  });
});

describe('parseTransforms: invalid steps → 400 naming the step', () => {
  it.each<[string, string]>([
    // Unknown steps and options
    [
      'nonsense',
      'Invalid transformation "nonsense": unknown step "nonsense" (supported: resize, crop, rotate, flip, flop, monochrome, blur, sharpen, output, quality)',
    ],
    ['Resize=width:10', 'unknown step "Resize"'],
    ['=width:10', 'unknown step ""'],
    [
      'resize=width:10,colour:red',
      'Invalid transformation "resize=width:10,colour:red": unknown option "colour" (allowed: width, height, fit, align)',
    ],
    ['flip=axis:x', 'unknown option "axis" (allowed: none)'],
    ['monochrome=amount:1', 'unknown option "amount" (allowed: none)'],
    ['blur=radius:3', 'unknown option "radius" (allowed: amount)'],
    ['crop=x:1', 'unknown option "x" (allowed: dim)'],
    ['quality=q:50', 'unknown option "q" (allowed: value)'],
    // Malformed parameters
    ['resize=width', '"width" is not key:value'],
    ['resize=:10', '":10" is not key:value'],
    ['resize=width:10,width:20', '"width" is given twice'],
    // resize
    ['resize', 'give width, height or both'],
    ['resize=fit:crop', 'give width, height or both'],
    ['resize=width:0', 'width must be a whole number from 1 to 4000'],
    [`resize=width:${MAX_SIDE + 1}`, 'width must be a whole number from 1 to 4000'],
    [`resize=height:${MAX_SIDE + 1}`, 'height must be a whole number from 1 to 4000'],
    ['resize=height:0', 'height must be a whole number from 1 to 4000'],
    ['resize=width:-5', 'width must be a whole number from 1 to 4000'],
    ['resize=width:1.5', 'width must be a whole number from 1 to 4000'],
    ['resize=width:abc', 'width must be a whole number from 1 to 4000'],
    ['resize=width:', 'width must be a whole number from 1 to 4000'],
    ['resize=width:9999999', 'width must be a whole number from 1 to 4000'],
    ['resize=width:10,fit:fill', 'fit must be one of clip, crop, scale, max'],
    ['resize=width:10,align:middle', 'align must be one of center, top, bottom, left, right'],
    // crop
    ['crop', 'dim must be [x,y,width,height]'],
    ['crop=dim:[1,2,3]', 'dim must be [x,y,width,height]'],
    ['crop=dim:[1,2,3,4,5]', 'dim must be [x,y,width,height]'],
    ['crop=dim:1,2,3,4', '"2" is not key:value'],
    ['crop=dim:[-1,0,10,10]', 'dim must be [x,y,width,height]'],
    ['crop=dim:[a,0,10,10]', 'dim must be [x,y,width,height]'],
    ['crop=dim:[0,0,0,10]', 'crop width and height must be from 1 to 4000'],
    ['crop=dim:[0,0,10,0]', 'crop width and height must be from 1 to 4000'],
    [`crop=dim:[0,0,${MAX_SIDE + 1},10]`, 'crop width and height must be from 1 to 4000'],
    // rotate
    ['rotate', 'deg must be a whole number from 0 to 359'],
    ['rotate=deg:360', 'deg must be a whole number from 0 to 359'],
    ['rotate=deg:-90', 'deg must be a whole number from 0 to 359'],
    ['rotate=deg:45.5', 'deg must be a whole number from 0 to 359'],
    ['rotate=deg:90,background:red', 'background must be a hex colour such as ffffff'],
    ['rotate=deg:90,background:#ffffff', 'background must be a hex colour such as ffffff'],
    ['rotate=deg:90,background:fff', 'background must be a hex colour such as ffffff'],
    // blur and sharpen
    ['blur=amount:0.2', 'amount must be a number from 0.3 to 100'],
    ['blur=amount:100.5', 'amount must be a number from 0.3 to 100'],
    ['blur=amount:0', 'amount must be a number from 0.3 to 100'],
    ['blur=amount:abc', 'amount must be a number from 0.3 to 100'],
    ['sharpen=amount:101', 'amount must be a number from 0.3 to 100'],
    ['sharpen=amount:-1', 'amount must be a number from 0.3 to 100'],
    // output and quality
    ['output', 'give format, quality or both'],
    ['output=format:gif', 'format must be one of jpg, png, webp, avif'],
    ['output=format:tiff,quality:50', 'format must be one of jpg, png, webp, avif'],
    ['output=quality:0', 'quality must be a whole number from 1 to 100'],
    ['output=quality:101', 'quality must be a whole number from 1 to 100'],
    ['output=format:jpg,quality:high', 'quality must be a whole number from 1 to 100'],
    ['quality', 'value must be a whole number from 1 to 100'],
    ['quality=value:0', 'value must be a whole number from 1 to 100'],
    ['quality=value:101', 'value must be a whole number from 1 to 100'],
    // Encoding
    ['%E0%A4%A', 'malformed percent-encoding'],
  ])('%s', (segment, message) => {
    const { status, detail } = rejection([segment]);
    expect(status).toBe(400);
    expect(detail).toContain(message);
    expect(detail).toMatch(/^Invalid transformation "/);
  });

  it(`more than ${MAX_STEPS} steps`, () => {
    expect(rejection(Array.from({ length: MAX_STEPS + 1 }, () => 'flip'))).toEqual({
      status: 400,
      detail: `At most ${MAX_STEPS} transformation steps may be chained.`,
    });
  });

  it('one bad step among good ones fails the whole chain, naming the bad one', () => {
    const { detail } = rejection(['resize=width:10', 'rotate=deg:400', 'flip']);
    expect(detail).toBe('Invalid transformation "rotate=deg:400": deg must be a whole number from 0 to 359');
  });
});

describe('canonicalTransforms: the cache key', () => {
  const key = (...segments: string[]): string => canonicalTransforms(parseTransforms(segments));

  it('is a pure function of the steps (same steps, same text, every time)', () => {
    const steps = parseTransforms(['resize=width:300,height:200,fit:crop', 'output=format:webp,quality:70']);
    expect(canonicalTransforms(steps)).toBe(canonicalTransforms(structuredClone(steps)));
    expect(canonicalTransforms(steps)).toBe(key('resize=width:300,height:200,fit:crop', 'output=format:webp,quality:70'));
    expect(canonicalTransforms([])).toBe(canonicalTransforms([]));
  });

  it.each<[string, string]>([
    ['resize=height:200,width:300', 'resize=width:300,height:200'],
    ['resize=width:300', 'resize=width:300,fit:clip,align:center'],
    ['resize=width:0300', 'resize=width:300'],
    ['output=format:jpeg', 'output=format:jpg'],
    ['output=format:JPG', 'output=format:jpg'],
    ['quality=value:50', 'output=quality:50'],
    ['blur', 'blur=amount:2'],
    ['blur=amount:2.0', 'blur=amount:2'],
    ['rotate=deg:90', 'rotate=deg:90,background:ffffff'],
    ['crop=dim:[ 1, 2, 3, 4 ]', 'crop=dim:[1,2,3,4]'],
    ['resize%3Dwidth%3A300', 'resize=width:300'],
    ['rotate=deg:90,background:FFFFFF', 'rotate=deg:90,background:ffffff'],
  ])('%s and %s are the same key', (a, b) => {
    expect(key(a)).toBe(key(b));
  });

  it.each<[string[], string[]]>([
    [['resize=width:300'], ['resize=width:301']],
    [['resize=width:300'], ['resize=height:300']],
    [['resize=width:300,height:300,fit:crop'], ['resize=width:300,height:300,fit:scale']],
    [['resize=width:300,height:300,fit:crop,align:top'], ['resize=width:300,height:300,fit:crop,align:bottom']],
    [['flip'], ['flop']],
    [
      ['flip', 'rotate=deg:90'],
      ['rotate=deg:90', 'flip'],
    ],
    [['flip'], ['flip', 'flip']],
    [['output=format:webp'], ['output=format:avif']],
    [['output=format:jpg,quality:10'], ['output=format:jpg,quality:90']],
    [['rotate=deg:45,background:000000'], ['rotate=deg:45,background:ffffff']],
    [['blur=amount:1'], ['sharpen=amount:1']],
    [[], ['output=format:png']],
  ])('%j and %j are different keys', (a, b) => {
    expect(key(...a)).not.toBe(key(...b));
  });
});
