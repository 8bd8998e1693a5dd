import { InvalidArgumentError } from 'commander';

/** Commander argument parser for whole numbers within bounds. */
export function intOption(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

export function numberOption(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min)
      throw new InvalidArgumentError(`expected a number of at least ${min}`);
    return n;
  };
}

/** For repeatable options: --file a --file b. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
