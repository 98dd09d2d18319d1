// Imported only when the lazy family of family_test.ts is loaded; counts its own evaluation.
import { makeTool } from './tools.ts';

const counter = globalThis as { __toolsearchLazyPdfImports?: number };
counter.__toolsearchLazyPdfImports = (counter.__toolsearchLazyPdfImports ?? 0) + 1;

export const tools = [
  makeTool('PdfExtract', {
    description: 'Extracts the text of every page of a PDF document.',
    properties: { file_path: { type: 'string', description: 'The PDF file' } },
  }),
  makeTool('PdfMerge', { description: 'Merges several PDF documents into one file.' }),
];
