"""The MCP endpoint: Dossier's memory as tools for agents, over Streamable HTTP at `/mcp` and
over stdio (`dossier mcp`)."""
