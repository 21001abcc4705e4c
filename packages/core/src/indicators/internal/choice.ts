import { InputError } from '../../errors.js';

/** Throws unless `value` is one of `choices` (a string option such as a convention). Returns it. */
export function checkChoice<T extends string>(name: string, value: T, choices: readonly T[]): T {
  if (!choices.includes(value)) {
    throw new InputError('invalid_option', `${name} must be one of ${choices.join(', ')}, got ${String(value)}`, name);
  }
  return value;
}

/** Whose definition an indicator follows where TA-Lib and TradingView differ. */
export type Convention = 'talib' | 'tradingview';

/** The accepted values of a `convention` option. */
export const CONVENTIONS: readonly Convention[] = ['talib', 'tradingview'];
