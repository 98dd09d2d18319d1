/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}

// TODO: subtract, once someone needs it.
