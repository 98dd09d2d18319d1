/** The greeting shown to every visitor. */
export function greet(name: string): string {
  return `Helo, ${name}!`;
}
