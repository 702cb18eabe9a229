/** A sample number for a JSON Schema: inside its bounds, on its `multipleOf` grid. */
import type { JsonSchema } from '../../../core/chat.js';
import { numberOf } from './schema-values.js';

export function sampleNumber(s: JsonSchema, integer: boolean, variant: number): number {
  let low = numberOf(s.minimum);
  let high = numberOf(s.maximum);
  let lowExclusive = s.exclusiveMinimum === true && low !== undefined;
  let highExclusive = s.exclusiveMaximum === true && high !== undefined;
  const exMin = numberOf(s.exclusiveMinimum);
  const exMax = numberOf(s.exclusiveMaximum);
  if (exMin !== undefined && (low === undefined || exMin >= low)) [low, lowExclusive] = [exMin, true];
  if (exMax !== undefined && (high === undefined || exMax <= high)) [high, highExclusive] = [exMax, true];
  const multipleOf = numberOf(s.multipleOf);
  const step = multipleOf !== undefined && multipleOf > 0 ? (integer ? integerStep(multipleOf) : multipleOf) : integer ? 1 : undefined;

  let value = 1 + variant * (step ?? 1);
  if (low !== undefined && value < low) value = low;
  if (high !== undefined && value > high) value = high;
  if (step !== undefined) {
    value = Math.ceil(round(value / step)) * step;
    if (low !== undefined && (value < low || (lowExclusive && value <= low))) value += step;
    if (high !== undefined && (value > high || (highExclusive && value >= high))) {
      value = Math.floor(round(high / step)) * step;
      if (highExclusive && value >= high) value -= step;
    }
    return round(value);
  }
  if (lowExclusive && low !== undefined && value <= low) value = high !== undefined ? (low + high) / 2 : low + 1;
  if (highExclusive && high !== undefined && value >= high) value = low !== undefined ? (low + high) / 2 : high - 1;
  return value;
}

/** The smallest integer multiple of `multipleOf` (e.g. 0.5 → 1, 0.3 → 3). */
function integerStep(multipleOf: number): number {
  for (let k = 1; k <= 1000; k++) {
    const candidate = round(multipleOf * k);
    if (Number.isInteger(candidate)) return candidate;
  }
  return Math.ceil(multipleOf);
}

/** Removes binary floating-point noise such as 0.30000000000000004. */
const round = (value: number): number => Number(value.toPrecision(12));
