import { describe, expect, test } from 'vitest';
import { mapCallResult } from './map_call_result.ts';

const PNG = 'iVBORw0KGgo=';

describe('mapCallResult', () => {
  test('all-text results become one string', () => {
    expect(
      mapCallResult(
        {
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        's',
      ),
    ).toBe('a\nb');
  });

  test('viewable images become image blocks; other images, audio and blobs are described', () => {
    const content = mapCallResult(
      {
        content: [
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'image', data: PNG, mimeType: 'image/tiff' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/mpeg' },
          { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/octet-stream', blob: 'AAAA' } },
          { type: 'resource', resource: { uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
          { type: 'resource', resource: { uri: 'file:///a.png', mimeType: 'image/png', blob: PNG } },
        ],
      },
      's',
    );
    expect(content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'text', text: '[image of type image/tiff, 8 bytes: not a type the model can view]' },
      { type: 'text', text: '[audio of type audio/mpeg, 3 bytes: not shown to the model]' },
      {
        type: 'text',
        text: '[resource file:///a.bin (application/octet-stream), 3 bytes of binary data: not shown to the model]',
      },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'file:///a.pdf',
      },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
  });

  test('resource links name the ReadMcpResource call that reads them', () => {
    expect(
      mapCallResult(
        { content: [{ type: 'resource_link', uri: 'db://t/1', name: 'row 1', description: 'first row' }] },
        'db',
      ),
    ).toBe(
      '[resource link] row 1: db://t/1 (first row). Read it with ReadMcpResource {"server": "db", "uri": "db://t/1"}.',
    );
  });

  test('structuredContent is shown as JSON when no text block carries the result', () => {
    expect(JSON.parse(mapCallResult({ content: [], structuredContent: { n: 1 } }, 's') as string)).toEqual({ n: 1 });
    expect(mapCallResult({ content: [{ type: 'text', text: 'n is 1' }], structuredContent: { n: 1 } }, 's')).toBe(
      'n is 1',
    );
  });

  test('an unknown content kind is named, not dropped', () => {
    expect(mapCallResult({ content: [{ type: 'hologram' }] }, 's')).toBe(
      '[content of type "hologram" that Toolshed does not know how to show]',
    );
  });

  test('a text/* or JSON blob is shown as its text; a binary one is still described', () => {
    const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64');
    expect(
      mapCallResult(
        {
          content: [
            {
              type: 'resource',
              resource: {
                uri: 'file:///notes.md',
                mimeType: 'text/markdown; charset=utf-8',
                blob: b64('# Notes\nhéllo'),
              },
            },
            {
              type: 'resource',
              resource: { uri: 'file:///a.json', mimeType: 'application/json', blob: b64('{"a":1}') },
            },
            { type: 'resource', resource: { uri: 'file:///x.geo', mimeType: 'application/geo+json', blob: b64('{}') } },
          ],
        },
        's',
      ),
    ).toBe(
      '[resource file:///notes.md (text/markdown; charset=utf-8)]\n# Notes\nhéllo\n[resource file:///a.json (application/json)]\n{"a":1}\n[resource file:///x.geo (application/geo+json)]\n{}',
    );
    expect(
      mapCallResult(
        {
          content: [
            { type: 'resource', resource: { uri: 'file:///t.bin', mimeType: 'application/textile-not', blob: 'AAAA' } },
          ],
        },
        's',
      ),
    ).toContain('3 bytes of binary data');
  });
});
