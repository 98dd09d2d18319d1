import { add, Square, type Shape } from './math.ts';

export function total(shapes: Shape[]): number {
  let sum = 0;
  for (const shape of shapes) sum = add(sum, shape.area());
  return sum;
}

export function main(): number {
  return total([new Square(2), new Square(3)]);
}
