// A port of 127.0.0.1 that nothing listens on now (the OS's pick), for a server a test or the
// benchmark starts. Types: free-port.d.ts beside it.
import { createServer } from 'node:net';

export async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
