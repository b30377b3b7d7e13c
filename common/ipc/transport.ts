/** Electron IPC channel names shared by the preload and main's Electron transport, and the web bridge's message shapes. */
export const INVOKE_CHANNEL = 's2t:invoke';
export const eventChannel = (event: string) => `s2t:event:${event}`;

/** Web bridge frames (JSON over one WebSocket). */
export type BridgeRequest = { id: number; channel: string; args: unknown };
/**
 * A request that carries bytes (live audio) travels as one binary frame, not JSON: a 4-byte
 * little-endian length, that many bytes of JSON (a BinaryRequestHeader), then the bytes, which
 * become `args[bytesField]`. Bytes stay bytes: no base64 on the way, and the contract checks them
 * as any argument (their type and length).
 */
export type BinaryRequestHeader = BridgeRequest & { bytesField: string };
export const BINARY_HEADER_MAX_BYTES = 16 * 1024;
export type BridgeFrame = { id: number; reply: { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } } } | { event: string; payload: unknown };
/** The WebSocket path of the web bridge; a page's session (common/ipc/admission.ts) travels as the subprotocol `s2t.<session>`. */
export const BRIDGE_PATH = '/bridge';
export const TOKEN_PROTOCOL_PREFIX = 's2t.';
