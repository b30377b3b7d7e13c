/**
 * The web bridge's binary request frame (common/ipc/transport.ts): a length, a JSON header, then
 * the bytes of one argument. A frame that is not so is refused with the reason, never guessed at.
 */
import { z } from 'zod';
import { BINARY_HEADER_MAX_BYTES } from '../../common/ipc';

const Header = z.object({
  id: z.number().int().nonnegative(),
  channel: z.unknown(),
  args: z.record(z.string(), z.unknown()),
  bytesField: z.string().min(1).max(64),
});

export type BinaryRequest = { id: number; channel: unknown; args: Record<string, unknown> };

/** The request a binary frame carries, or why it carries none. */
export function readBinaryRequest(frame: Buffer): BinaryRequest | { refused: string } {
  if (frame.length < 4) return { refused: 'a binary frame starts with its header length' };
  const headerBytes = frame.readUInt32LE(0);
  if (headerBytes > BINARY_HEADER_MAX_BYTES || 4 + headerBytes > frame.length) return { refused: 'the binary frame header length is wrong' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame.toString('utf8', 4, 4 + headerBytes));
  } catch {
    return { refused: 'the binary frame header must be JSON' };
  }
  const header = Header.safeParse(parsed);
  if (!header.success) return { refused: 'binary frames are {id, channel, args, bytesField} then bytes' };
  const { id, channel, args, bytesField } = header.data;
  // A copy of its own: the frame's buffer may be pooled and reused by the socket.
  const bytes = new Uint8Array(frame.subarray(4 + headerBytes));
  return { id, channel, args: { ...args, [bytesField]: bytes } };
}
