/** What the host said about itself (GET /api/health): its model's name and its MCP servers that are ready. */
export interface HostFacts {
  model: string | null;
  servers: readonly string[];
}

/** The scripted model's name in GET /api/health. */
export const DEMO_MODEL = "scripted";
