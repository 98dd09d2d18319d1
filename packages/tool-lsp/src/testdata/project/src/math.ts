export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(readonly side: number) {}
  area(): number {
    return this.side * this.side;
  }
}

/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}
