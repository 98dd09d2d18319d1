// The demo's issue tracker: a small MCP server over stdio with the sample repository's open
// issues, so the demo's agent meets an MCP tool (deferred until ToolSearch loads it).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const issues = {
  42: {
    title: 'The greeting has a typo',
    body: 'greet() says "Helo". Fix it as the style guide says (docs/guide.html).',
    labels: ['bug', 'good first issue'],
  },
  43: {
    title: 'Add subtract()',
    body: 'math.ts has a TODO for subtract(). Nobody needs it yet.',
    labels: ['enhancement'],
  },
};
const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const tools = [
  {
    name: 'get_issue',
    description: 'Returns one issue of the greeter project: title, labels and description.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'integer', description: 'The issue number' } },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: readOnly,
  },
  {
    name: 'list_issues',
    description: 'Lists the open issues of the greeter project with their numbers and titles.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: readOnly,
  },
];

const server = new Server({ name: 'greeter-tracker', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
  if (params.name === 'list_issues') {
    return {
      content: [
        {
          type: 'text',
          text: Object.entries(issues)
            .map(([id, i]) => `#${id} ${i.title}`)
            .join('\n'),
        },
      ],
    };
  }
  const issue = issues[params.arguments?.id];
  if (params.name !== 'get_issue' || !issue)
    return {
      isError: true,
      content: [{ type: 'text', text: `No issue #${params.arguments?.id}; list_issues shows the open ones.` }],
    };
  return {
    content: [
      { type: 'text', text: `#${params.arguments.id} ${issue.title} [${issue.labels.join(', ')}]\n\n${issue.body}` },
    ],
  };
});
await server.connect(new StdioServerTransport());
