import { gate, keyMayUse } from '../../lib/agency/gate';
import { SERVER_INSTRUCTIONS, ToolServer } from '../../lib/mcp/tool_server';
import { TOOLS } from '../agency/table';

/** The agency tool server at /mcp: every tool of the operation table, built once per process (or isolate). */
export const agencyToolServer = new ToolServer({ ops: TOOLS, name: 'reply-intelligence-agency', version: '1.0.0', instructions: SERVER_INSTRUCTIONS, gate, mayList: keyMayUse });
