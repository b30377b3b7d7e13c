/**
 * Loopback ports held as another program would hold them: a plain net.Server that hangs up on
 * whoever calls, so a client still aimed there fails at once instead of waiting.
 */
import { createServer, type Server } from 'node:net';

export interface HeldPorts {
  /** Holds 127.0.0.1:port, retrying while its last owner is still letting it go. */
  hold(port: number): Promise<void>;
  /** Lets every held port go. */
  release(): Promise<void>;
}

export function heldPorts(): HeldPorts {
  const held: Server[] = [];
  return {
    async hold(port) {
      for (let tries = 0; ; tries++) {
        const server = createServer((socket) => socket.destroy());
        const err = await new Promise<Error | null>((res) => server.once('error', res).listen(port, '127.0.0.1', () => res(null)));
        if (!err) return void held.push(server);
        if (tries >= 200) throw err;
        await new Promise((res) => setTimeout(res, 50));
      }
    },
    async release() {
      await Promise.all(held.splice(0).map((s) => new Promise((res) => s.close(res))));
    },
  };
}

export const portOf = (url: string) => Number(new URL(url).port);
