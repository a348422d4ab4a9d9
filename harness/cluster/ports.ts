import net from 'node:net';

/** Whether something accepts connections on the port. */
async function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether this machine lets us listen on the port (nothing listens there, no socket holds it). */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free run of ports for nginx and its processes, below Linux's ephemeral range (32768 and up),
 * where outgoing connections would otherwise take them between our check and the listen.
 */
export async function freeClusterPort(processes: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const ports = Array.from({ length: processes + 1 }, (_, i) => base + i);
    if ((await Promise.all(ports.map(canListen))).every(Boolean)) return base;
  }
  throw new Error('no free run of ports between 20000 and 32000');
}

/** Waits until the port accepts connections, `what` naming it in the error after `timeoutMs`. */
export async function untilOpen(port: number, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await portIsOpen(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not open port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
