/** What a test file opened and must close after each test: MCP clients first, then mux sockets, then hosts. */
export function createCleanup() {
  const clients: { close(): Promise<void> }[] = [];
  const sockets: { close(): Promise<void> }[] = [];
  const servers: { close(): Promise<void> }[] = [];
  return {
    clients,
    sockets,
    servers,
    async closeAll() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await Promise.all(sockets.splice(0).map((socket) => socket.close()));
      await Promise.all(servers.splice(0).map((server) => server.close()));
    },
  };
}
