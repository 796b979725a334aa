// A formula's value as the cell its column type stores: nothing (null, empty text, an empty list) is an `empty`
// cell, which is neither written nor charged.
import { asText, type Value } from './expr/run';
import type { CellResult, OutputType } from './types';

export const MAX_CELL_TEXT = 2000;

const YES = new Set(['yes', 'true', 'y', '1', 'ja', 'oui', 'si', 'sí']);
const NO = new Set(['no', 'false', 'n', '0', 'nein', 'non', 'nee']);

export function cellOf(v: Value, type: OutputType): CellResult {
  if (v === null || (Array.isArray(v) && v.length === 0)) return { status: 'empty' };
  const t = asText(v).trim();
  switch (type) {
    case 'boolean': {
      if (typeof v === 'boolean') return { status: 'written', value: v };
      if (typeof v === 'number') return { status: 'written', value: v !== 0 };
      const w = t.toLowerCase().replace(/[.!]+$/, '');
      if (YES.has(w)) return { status: 'written', value: true };
      if (NO.has(w)) return { status: 'written', value: false };
      return { status: 'empty' };
    }
    case 'number': {
      const n = typeof v === 'number' ? v : Number(t.replace(/[,_\s]/g, ''));
      return t !== '' && Number.isFinite(n) ? { status: 'written', value: n } : { status: 'empty' };
    }
    case 'url': {
      if (!t || /\s/.test(t)) return { status: 'empty' };
      const url = /^https?:\/\//i.test(t) ? t : /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/\S*)?$/i.test(t) ? `https://${t}` : null;
      return url ? { status: 'written', value: url.slice(0, MAX_CELL_TEXT) } : { status: 'empty' };
    }
    default:
      return t ? { status: 'written', value: t.slice(0, MAX_CELL_TEXT) } : { status: 'empty' };
  }
}
