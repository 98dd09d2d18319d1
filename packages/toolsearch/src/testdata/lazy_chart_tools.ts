// Imported only when the lazy family of family_test.ts is loaded; counts its own evaluation.
import { makeTool } from './tools.ts';

const counter = globalThis as { __toolsearchLazyChartImports?: number };
counter.__toolsearchLazyChartImports = (counter.__toolsearchLazyChartImports ?? 0) + 1;

export const tools = [
  makeTool('ChartRender', { description: 'Renders a bar or line chart from rows of numbers to a PNG image.' }),
];
